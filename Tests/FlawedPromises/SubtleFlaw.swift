// Subtle flaws of the reference promise: each one line of ReferencePromise (or its combinators, or its adapter),
// guarded by `flaw == .x`, that makes it wrong only in programs of a certain shape (past a count or a depth, in a call
// made from inside a handler, or in a mixture), which the suite's fixed clauses do not build. The suite's generated
// programs are meant to find them; ConformanceTests' SubtleFlawTests shows each one real and missed by the fixed
// clauses.
import Foundation
import TestSupport

/// The one subtle thing a ``ReferencePromise`` gets wrong (nil: nothing, the correct reference).
///
/// Each case says what goes wrong and the smallest program that shows it (its trigger).
public enum SubtleFlaw: String, CaseIterable, Sendable, Codable {
    // MARK: Handler order (A+ 2.2.6)

    /// A rejection dispatches the handlers of a promise that has more than four pending from the fifth on first, then
    /// the first four (an overflow list walked before the inline slots, on the rejection path only).
    /// Trigger: five handlers on one serial queue registered on a pending promise, which is then rejected.
    case rejectionRunsLateHandlersFirst
    /// A settlement dispatches the handlers with no queue of a promise that has more than two of them pending from the
    /// last to the third after the first two (a list of default-queue handlers walked backwards past two inline slots).
    /// Trigger: three handlers with no queue on a pending promise, which then settles (with the driver's observer,
    /// which has no queue either, the third and fourth swap).
    case unqueuedHandlersPastSecondRunLastFirst
    /// A handler with no queue registered on a settled promise from inside a handler of that promise that has no
    /// queue either runs as soon as the running handler returns, on its thread, ahead of the handlers already waiting
    /// on the default queue (a "run next" shortcut for work the current handler adds).
    /// Trigger: two handlers with no queue on a pending promise, the first of which registers a third with no queue;
    /// the promise settles.
    case unqueuedHandlerAddedInsideRunsFirst
    /// A rejection dispatches the handlers that have onRejected only (a `catch`) after every other handler of the
    /// promise, whatever their registration order (catch handlers kept in a list of their own).
    /// Trigger: on one serial queue, a handler with onRejected only, then one with both, on a pending promise, which is
    /// then rejected.
    case catchHandlersRunLast

    // MARK: A handler dropped or run twice

    /// A rejection of a promise that has more than six pending handlers never runs the sixth (its slot is overwritten
    /// by the seventh); its derived promise stays pending.
    /// Trigger: seven handlers on a pending promise, which is then rejected.
    case rejectionDropsSixthHandler
    /// A promise settled by adoption (a handler returned a promise, or a thenable resolved with one) that has more than
    /// two pending handlers runs its first handler twice.
    /// Trigger: a handler returns a pending promise x; three handlers on the derived promise; x settles.
    case adoptionRunsFirstHandlerTwice

    // MARK: Handlers run inside the call that triggered them (A+ 2.2.4)

    /// `fulfill` or `reject` called from inside a handler runs the settled promise's handlers before it returns
    /// ("already inside a handler: no need to hop").
    /// Trigger: a handler of one promise fulfils another pending promise that has a handler.
    case settleInsideHandlerRunsInline
    /// `then` on an already-settled promise, called from inside a handler of another promise, runs the new handler
    /// before it returns (the same-promise case, which the fixed clauses check, is spared).
    /// Trigger: a handler of one promise calls `then` on another promise that is already settled.
    case thenInsideOtherHandlerRunsInline

    // MARK: Values and reasons down a chain

    /// From the fifth link of a chain on, a value returned by onFulfilled is ignored: the derived promise is fulfilled
    /// with the handler's input instead.
    /// Trigger: a chain of five `then`s whose fifth onFulfilled returns a value other than its input.
    case deepHandlerValueIgnored
    /// From the seventh link of a chain on, an onRejected that returns a value (a recovery) leaves the derived promise
    /// rejected with the reason it was given.
    /// Trigger: a rejected promise, six pass-through links, and a seventh `then` whose onRejected returns a value.
    case deepRecoveryIgnored

    // MARK: Adoption

    /// Adopting a promise derived from the same promise as the adopter (a sibling, registered later) is taken for a
    /// cycle: the adopter is rejected as if it had adopted itself (a cycle check comparing the wrong parent).
    /// Trigger: two `then`s on one promise, the first one's handler returning the second one's derived promise.
    case siblingAdoptionRejectedAsCycle
    /// A pending promise adopted by more than two promises forgets every adopter after the second: they never settle.
    /// Trigger: three handlers (of other promises) each return the same pending promise x; x settles.
    case thirdAdopterForgotten

    // MARK: Thenables

    /// A thenable nested four deep or more (a thenable resolving with a thenable ...) that rejects leaves the promise
    /// pending: past three levels the unwrapping listens for values only.
    /// Trigger: a promise assimilating a thenable that resolves with a thenable, three times, the fourth rejecting.
    case deepThenableRejectionLost

    // MARK: all

    /// `all` of more than three inputs calls its completion again for each later rejection.
    /// Trigger: `all` of four pending inputs, two of which reject.
    case allCompletesAgainOnLaterRejection
    /// `all` counts a repeated input once: it fulfils with one value per distinct input (a shorter array).
    /// Trigger: `all` of the same promise twice, which fulfils.
    case allDropsRepeatedInputs

    // MARK: race

    /// `race` skips its inputs that are already rejected when it is called (its fast path only looks for a value):
    /// it settles like the first pending input to settle instead.
    /// Trigger: `race` of a rejected promise and a pending one, which later fulfils.
    case raceSkipsAlreadyRejectedInputs
    /// `race` of more than three inputs ignores the rejections of the inputs after the third: only their values count.
    /// Trigger: `race` of four pending inputs, the fourth rejecting first.
    case raceIgnoresRejectionsPastThirdInput
    /// `race` registers on its inputs last first: of the inputs already settled when it is called, it takes the last
    /// in input order.
    /// Trigger: `race` of a fulfilled promise and a rejected one.
    case raceTakesTheLastSettledInput

    // MARK: any

    /// `any` counts rejections per distinct promise: with a repeated input, it never has as many as its inputs and
    /// never rejects.
    /// Trigger: `any` of the same promise twice, which rejects.
    case anyCountsRepeatedInputOnce
    /// `any` of no input stays pending for ever instead of rejecting.
    /// Trigger: `any` of nothing.
    case anyOfNothingStaysPending
    /// `any` registers on its inputs last first: of the inputs already fulfilled when it is called, it takes the last
    /// in input order.
    /// Trigger: `any` of two fulfilled promises with different values.
    case anyTakesTheLastFulfilledInput

    // MARK: Cancellation

    /// A cancellation passed on through more than three links without onRejected stops being a cancellation: from the
    /// fourth link on, the derived promises are rejected with another error.
    /// Trigger: a cancellable promise, a chain of four `then`s with onFulfilled only, cancel.
    case cancellationBecomesErrorPastThreeLinks
    /// Cancelling a promise that has more than three pending handlers skips the handlers without onRejected: their
    /// derived promises stay pending instead of being cancelled.
    /// Trigger: a cancellable promise with four handlers (onFulfilled only), cancel.
    case cancellationSkipsPassThroughPastThree

    // MARK: Release

    /// A promise rejected through adoption (the promise it adopted rejected) keeps itself alive for ever.
    /// Trigger: a handler returns a promise that rejects; everything dropped.
    case rejectedAdoptionLeaks
    /// A promise that gets a fifth pending handler (a wide fan-out) keeps itself alive for ever.
    /// Trigger: five handlers on one pending promise; everything dropped (settled or not).
    case wideFanOutLeaks
}

/// What a leaking ``SubtleFlaw`` makes a promise hold: an object of its own, so that the leak has an allocation of its
/// own to name (`.ci/lsan.supp` suppresses it, and with it everything the leaked promise holds).
final class SubtleFlawLeak: @unchecked Sendable {
    let held: AnyObject
    init(_ held: AnyObject) { self.held = held }
}

/// The promise whose handler the current thread is running, recorded only for flawed promises: what the flaws about
/// calls made from inside a handler look at.
struct RunningHandler: Sendable {
    private static let key = "ReferencePromise.runningHandlerOf"
    private static let unqueuedKey = "ReferencePromise.runningUnqueuedHandlerOf"
    private static let afterKey = "ReferencePromise.callbacksAfterHandler"
    /// The promise whose handler ``run(_:)`` marks, or nil not to mark anything (the correct reference).
    private let promise: UInt?
    /// Whether the handler was registered with no queue.
    private let unqueued: Bool

    init(of promise: AnyObject, flawed: Bool, unqueued: Bool = false) {
        self.promise = flawed ? UInt(bitPattern: ObjectIdentifier(promise).hashValue) : nil
        self.unqueued = unqueued
    }

    /// Runs a handler, marking the thread as running a handler of the promise meanwhile.
    func run<T>(_ handler: () throws -> T) rethrows -> T {
        guard let promise else { return try handler() }
        let thread = Thread.current.threadDictionary
        let outer = thread[Self.key]
        let outerUnqueued = thread[Self.unqueuedKey]
        thread[Self.key] = promise
        thread[Self.unqueuedKey] = unqueued ? promise : nil
        defer {
            thread[Self.key] = outer
            thread[Self.unqueuedKey] = outerUnqueued
            if outer == nil, let waiting = thread[Self.afterKey] as? CallbacksAfterHandler {
                thread[Self.afterKey] = nil
                for callback in waiting.callbacks { callback() }
            }
        }
        return try handler()
    }

    /// Whether the current thread is running a handler of `promise` (a flawed one) registered with no queue.
    static func isRunningUnqueued(of promise: AnyObject) -> Bool {
        guard let running = Thread.current.threadDictionary[unqueuedKey] as? UInt else { return false }
        return running == UInt(bitPattern: ObjectIdentifier(promise).hashValue)
    }

    /// Runs `callback` on this thread as soon as the handler it is running returns
    /// (``SubtleFlaw/unqueuedHandlerAddedInsideRunsFirst`` only).
    static func runWhenTheHandlerReturns(_ callback: @escaping () -> Void) {
        let thread = Thread.current.threadDictionary
        let waiting = thread[afterKey] as? CallbacksAfterHandler ?? CallbacksAfterHandler()
        waiting.callbacks.append(callback)
        thread[afterKey] = waiting
    }

    /// Whether the current thread is running a handler of a flawed promise.
    static var isRunning: Bool { Thread.current.threadDictionary[key] != nil }

    /// Whether the current thread is running a handler of a flawed promise other than `promise`.
    static func isRunning(otherThan promise: AnyObject) -> Bool {
        guard let running = Thread.current.threadDictionary[key] as? UInt else { return false }
        return running != UInt(bitPattern: ObjectIdentifier(promise).hashValue)
    }
}

/// The callbacks a thread runs once the handler it is running returns
/// (``SubtleFlaw/unqueuedHandlerAddedInsideRunsFirst`` only).
private final class CallbacksAfterHandler {
    var callbacks: [() -> Void] = []
}

/// Counts the distinct objects added (``SubtleFlaw/anyCountsRepeatedInputOnce`` only).
final class DistinctCounter: Sendable {
    private let seen = Locked<Set<ObjectIdentifier>>([])

    /// Adds `object` and returns how many distinct objects were added so far.
    func add(_ object: ObjectIdentifier) -> Int {
        seen.withLock { seen in
            seen.insert(object)
            return seen.count
        }
    }
}
