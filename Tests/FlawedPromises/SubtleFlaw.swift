// Subtle flaws of the reference promise: each one line of ReferencePromise (or its combinators, or its adapter),
// guarded by `flaw == .x`, that makes it wrong only in programs of a certain shape (past a count or a depth, in a call
// made from inside a handler, or in a mixture, or in a relation between steps), which the suite's fixed clauses do
// not build. The suite's generated programs are meant to find them; ConformanceTests' SubtleFlawTests shows each one
// real and missed by the fixed clauses, and each one's trigger (a generated program) wrong with the flaw only.
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

    // MARK: Handlers registered from inside a handler of the same promise

    /// A `then` with a queue, called on a settled promise from inside one of that promise's handlers that has no queue,
    /// is never run: the promise is still delivering on its default queue, and the new callback joins the list being
    /// delivered, which was already read.
    /// Trigger: a handler with no queue registers a handler on a serial queue on its own (settled) promise.
    case queuedThenInsideOwnHandlerLost
    /// A `then` called on a settled promise from inside one of that promise's handlers runs twice: once dispatched at
    /// once, and once more by the delivery still in progress.
    /// Trigger: a handler on a serial queue registers a handler with no queue on its own (settled) promise.
    case thenInsideOwnHandlerRunsTwice
    /// A `then` with a queue, called on a settled promise from inside one of that promise's handlers that has no queue,
    /// runs its handler at once, inside the call ("already delivering this promise's value: no need to hop").
    /// Trigger: a handler with no queue registers a handler on a serial queue on its own (settled) promise.
    case queuedThenInsideOwnHandlerRunsInline
    /// A `then` on the promise a running handler will resolve (its own `then`'s promise), called from inside that
    /// handler, is taken for a cycle: the promise it returns is rejected at once.
    /// Trigger: a handler registers a handler on the promise its own `then` returned.
    case thenOnResolvingPromiseRejectedAsCycle

    // MARK: A handler dropped or run twice

    /// A rejection of a promise that has more than six pending handlers never runs the sixth (its slot is overwritten
    /// by the seventh); its derived promise stays pending.
    /// Trigger: seven handlers on a pending promise, which is then rejected.
    case rejectionDropsSixthHandler
    /// A promise settled by adoption (a handler returned a promise, or a thenable resolved with one) that has more than
    /// two pending handlers runs its first handler twice.
    /// Trigger: a handler returns a pending promise x; three handlers on the derived promise; x settles.
    case adoptionRunsFirstHandlerTwice
    /// A promise made by `then` drops a callback registered on it from inside its own handler (a `then`, a
    /// combinator made in the handler): "it is being resolved on this thread", and the callback never runs.
    /// Trigger: a handler registers a handler on the promise its own `then` returned; the handler returns a value.
    case callbacksAddedDuringOwnHandlerLost
    /// A pass-through link (no handler for the outcome) with no queue, whose derived promise has more than one
    /// callback, hands its settlement to a delivery buffer of two entries on the promise the link is on, which that
    /// promise empties once the callbacks it dispatched have run: when three such links of one promise run, the third
    /// replaces the second, whose derived promise never settles.
    /// Trigger: three chains of two links off one pending promise, the first link of each passing its outcome on, with
    /// no queue; the promise settles.
    case passThroughDeliveryBufferOverwritesPastTwo
    /// As ``passThroughDeliveryBufferOverwritesPastTwo``, but a full buffer drops the new entry: the third link's
    /// derived promise never settles.
    /// Trigger: as ``passThroughDeliveryBufferOverwritesPastTwo``'s.
    case passThroughDeliveryBufferDropsPastTwo

    // MARK: Handlers run inside the call that triggered them (A+ 2.2.4)

    /// `fulfill` or `reject` called from inside a handler runs the settled promise's handlers before it returns
    /// ("already inside a handler: no need to hop").
    /// Trigger: a handler of one promise fulfils another pending promise that has a handler.
    case settleInsideHandlerRunsInline
    /// `fulfill` or `reject` called from inside a handler on a serial queue never runs the settled promise's handlers
    /// that have no queue ("the default queue is drained after this handler anyway").
    /// Trigger: a handler on a serial queue fulfils another pending promise that has a handler with no queue.
    case settleInsideQueuedHandlerSkipsUnqueuedHandlers
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
    /// A pending promise adopted by more than two promises rejects its third and later adopters when it settles (two
    /// adopter slots; the overflow is answered with an error).
    /// Trigger: three handlers (of a settled promise) each return the same pending promise x; x fulfils.
    case adoptersPastTheSecondRejected
    /// Adopting a promise that itself adopted another one still waiting for its resolver (not settled, nor resolved
    /// with a promise or a thenable) does nothing: "it is resolved already", so the adopter never subscribes and
    /// never settles.
    /// Trigger: one handler returns a pending promise x; a second handler returns the first one's promise; x settles.
    case adoptingAnAdoptingPromiseNeverSettles
    /// A promise that adopted a promise a handler returned passes a rejection on to its own adopters only if it was
    /// rejected directly: a rejection that reaches it through the promise it adopted stops there (its adopters stay
    /// pending).
    /// Trigger: one handler returns a pending promise x; a second returns the first one's promise; x rejects.
    case rejectionThroughTwoAdoptionsLost
    /// Adopting a promise that itself adopted another one still waiting for its resolver (not settled, nor resolved
    /// with a promise or a thenable) takes a shortcut to the promise it follows, and takes the wrong one: the promise
    /// whose `then` made it (its parent), not the one it adopted.
    /// Trigger: one handler returns a pending promise x; a second handler, of the same settled promise, returns the
    /// first one's promise; x settles.
    case adoptionShortcutFollowsTheParent

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

    // MARK: Combinators made inside a handler

    /// A combinator made from inside a handler over the promise that handler's `then` returned is taken for a
    /// dependency on itself (it waits on a promise that waits on the running handler): `race` and `any` reject at
    /// once, `all` completes with an error.
    /// Trigger: a handler makes a `race` of its own promise, and returns a value.
    case combinatorOverRunningHandlersPromiseRejected
    /// A combinator made from inside a handler, some of whose inputs are settled already, registers only on those
    /// ("the others settle after this delivery"), and never hears the others.
    /// Trigger: a handler makes an `any` of a rejected promise and of its own promise, and returns a value.
    case combinatorInHandlerSkipsPendingInputs

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
    private static let derivedKey = "ReferencePromise.runningHandlerFor"
    /// The promise whose handler ``run(_:)`` marks, or nil not to mark anything (the correct reference).
    private let promise: UInt?
    /// Whether the handler was registered with no queue.
    private let unqueued: Bool

    init(of promise: AnyObject, flawed: Bool, unqueued: Bool = false) {
        self.promise = flawed ? UInt(bitPattern: ObjectIdentifier(promise).hashValue) : nil
        self.unqueued = unqueued
    }

    /// Runs a handler, marking the thread as running a handler of the promise meanwhile, whose `then` made `derived`.
    func run<T>(derived: AnyObject, _ handler: () throws -> T) rethrows -> T {
        guard let promise else { return try handler() }
        let thread = Thread.current.threadDictionary
        let outer = thread[Self.key]
        let outerUnqueued = thread[Self.unqueuedKey]
        let outerDerived = thread[Self.derivedKey]
        thread[Self.key] = promise
        thread[Self.unqueuedKey] = unqueued ? promise : nil
        thread[Self.derivedKey] = Self.id(derived)
        defer {
            thread[Self.key] = outer
            thread[Self.unqueuedKey] = outerUnqueued
            thread[Self.derivedKey] = outerDerived
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

    /// Whether the current thread is running a handler of a flawed promise registered with a queue.
    static var isRunningQueued: Bool {
        let thread = Thread.current.threadDictionary
        return thread[key] != nil && thread[unqueuedKey] == nil
    }

    /// Whether the current thread is running a handler of a flawed promise.
    static var isRunning: Bool { Thread.current.threadDictionary[key] != nil }

    /// Whether the current thread is running a handler of `promise` (a flawed one).
    static func isRunning(of promise: AnyObject) -> Bool {
        Thread.current.threadDictionary[key] as? UInt == id(promise)
    }

    /// Whether the current thread is running the handler whose `then` made `promise` (a flawed one).
    static func isRunning(for promise: AnyObject) -> Bool {
        Thread.current.threadDictionary[derivedKey] as? UInt == id(promise)
    }

    private static func id(_ object: AnyObject) -> UInt { UInt(bitPattern: ObjectIdentifier(object).hashValue) }

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

extension SubtleFlaw {
    /// The flaw's trigger as a generated program (`Conformance.replay` runs it): the smallest program we know that the
    /// flaw makes go wrong, and the correct reference runs as the model requires. The relations between steps it has
    /// (the coverage table's) are the relations the flaw needs.
    public var trigger: String {
        func handlers(_ count: Int, on source: String, from first: Int, _ make: (Int) -> String) -> String {
            (0..<count).map { "p\(first + $0) = then \(source) \(make(first + $0))" }.joined(separator: "; ")
        }
        func chain(_ count: Int, from root: Int, _ link: String) -> String {
            (1...count).map {
                "p\(root + $0) = then p\(root + $0 - 1) \(link.replacingOccurrences(of: "V", with: "v\($0)"))"
            }
            .joined(separator: "; ")
        }
        switch self {
        case .rejectionRunsLateHandlersFirst:
            return "p0 = pending; " + handlers(5, on: "p0", from: 1) { "q1 _ ( -> v\($0) )" } + "; reject p0 e1"
        case .unqueuedHandlersPastSecondRunLastFirst:
            return "p0 = pending; " + handlers(3, on: "p0", from: 1) { "- ( -> v\($0) ) _" } + "; fulfil p0 v9"
        case .unqueuedHandlerAddedInsideRunsFirst:
            return "p0 = pending; p1 = then p0 - ( p3 = then p0 - ( -> v4 ) _ -> v1 ) _; p2 = then p0 - ( -> v2 ) _; "
                + "fulfil p0 v3"
        case .catchHandlersRunLast:
            return "p0 = pending; p1 = then p0 q1 _ ( -> v1 ); p2 = then p0 q1 ( -> v2 ) ( -> v3 ); reject p0 e1"
        case .queuedThenInsideOwnHandlerLost:
            return "p0 = pending; p1 = then p0 - ( p2 = then p0 q1 ( -> v1 ) _ -> v2 ) _; fulfil p0 v3"
        case .thenInsideOwnHandlerRunsTwice:
            return "p0 = pending; p1 = then p0 q1 ( p2 = then p0 - ( -> v1 ) _ -> v2 ) _; fulfil p0 v3"
        case .queuedThenInsideOwnHandlerRunsInline:
            return "p0 = pending; p1 = then p0 - ( p2 = then p0 q2 ( -> v1 ) _ -> v2 ) _; fulfil p0 v3"
        case .thenOnResolvingPromiseRejectedAsCycle:
            return "p0 = pending; p1 = then p0 q2 ( p2 = then p1 q1 ( -> v1 ) _ -> v2 ) _; fulfil p0 v3"
        case .rejectionDropsSixthHandler:
            return "p0 = pending; " + handlers(7, on: "p0", from: 1) { "q1 _ ( -> v\($0) )" } + "; reject p0 e1"
        case .adoptionRunsFirstHandlerTwice:
            return "p0 = pending; p1 = pending; p2 = then p0 - ( -> adopt p1 ) _; "
                + handlers(3, on: "p2", from: 3) { "q1 ( -> v\($0) ) _" } + "; fulfil p0 v7; fulfil p1 v8"
        case .callbacksAddedDuringOwnHandlerLost:
            return "p0 = pending; p1 = then p0 - ( p2 = then p1 q1 ( -> v1 ) _ -> v2 ) _; fulfil p0 v3"
        case .passThroughDeliveryBufferOverwritesPastTwo, .passThroughDeliveryBufferDropsPastTwo:
            return "p0 = pending; p1 = then p0 - _ ( -> v1 ); p2 = then p1 q1 ( -> v2 ) _; p3 = then p0 - _ ( -> v3 ); "
                + "p4 = then p3 q1 ( -> v4 ) _; p5 = then p0 - _ ( -> v5 ); p6 = then p5 q1 ( -> v6 ) _; fulfil p0 v7"
        case .settleInsideHandlerRunsInline:
            return "p0 = pending; p1 = pending; p2 = then p1 q1 ( -> v1 ) _; p3 = then p0 - ( fulfil p1 v2 -> v3 ) _; "
                + "fulfil p0 v4"
        case .settleInsideQueuedHandlerSkipsUnqueuedHandlers:
            return "p0 = pending; p1 = pending; p2 = then p1 - ( -> v1 ) _; p3 = then p0 q1 ( fulfil p1 v2 -> v3 ) _; "
                + "fulfil p0 v4"
        case .thenInsideOtherHandlerRunsInline:
            return
                "p0 = fulfilled v1; p1 = pending; p2 = then p1 - ( p3 = then p0 q1 ( -> v2 ) _ -> v3 ) _; fulfil p1 v4"
        case .deepHandlerValueIgnored:
            return "p0 = pending; " + chain(5, from: 0, "- ( -> V ) _") + "; fulfil p0 v9"
        case .deepRecoveryIgnored:
            return "p0 = rejected e1; " + chain(6, from: 0, "- ( -> V ) _") + "; p7 = then p6 - _ ( -> v9 )"
        case .siblingAdoptionRejectedAsCycle:
            return "p0 = pending; p1 = then p0 - ( -> adopt p2 ) _; p2 = then p0 - ( -> v1 ) _; fulfil p0 v2"
        case .thirdAdopterForgotten:
            return "p0 = pending; p1 = fulfilled v1; " + handlers(3, on: "p1", from: 2) { _ in "- ( -> adopt p0 ) _" }
                + "; fulfil p0 v2"
        case .adoptersPastTheSecondRejected:
            return "p0 = pending; p1 = fulfilled v1; " + handlers(3, on: "p1", from: 2) { _ in "q1 ( -> adopt p0 ) _" }
                + "; fulfil p0 v2"
        case .adoptingAnAdoptingPromiseNeverSettles:
            return "p0 = pending; p1 = pending; p2 = then p1 - ( -> adopt p0 ) _; p3 = then p1 - ( -> adopt p2 ) _; "
                + "fulfil p1 v1; fulfil p0 v2"
        case .rejectionThroughTwoAdoptionsLost:
            return "p0 = pending; p1 = pending; p2 = then p1 - ( -> adopt p0 ) _; p3 = then p1 - ( -> adopt p2 ) _; "
                + "fulfil p1 v1; reject p0 e1"
        case .adoptionShortcutFollowsTheParent:
            return
                "p0 = pending; p1 = fulfilled v1; p2 = then p1 - ( -> adopt p0 ) _; p3 = then p1 q1 ( -> adopt p2 ) _; "
                + "fulfil p0 v2"
        case .deepThenableRejectionLost:
            return "p0 = thenable 4 e1"
        case .allCompletesAgainOnLaterRejection:
            return "p0 = pending; p1 = pending; p2 = pending; p3 = pending; p4 = all p0 p1 p2 p3; reject p0 e1; "
                + "reject p1 e2"
        case .allDropsRepeatedInputs:
            return "p0 = pending; p1 = all p0 p0; fulfil p0 v1"
        case .raceSkipsAlreadyRejectedInputs:
            return "p0 = rejected e1; p1 = pending; p2 = race p0 p1; fulfil p1 v1"
        case .raceIgnoresRejectionsPastThirdInput:
            return "p0 = pending; p1 = pending; p2 = pending; p3 = pending; p4 = race p0 p1 p2 p3; reject p3 e1"
        case .raceTakesTheLastSettledInput:
            return "p0 = fulfilled v1; p1 = rejected e1; p2 = race p0 p1"
        case .anyCountsRepeatedInputOnce:
            return "p0 = pending; p1 = any p0 p0; reject p0 e1"
        case .anyOfNothingStaysPending:
            return "p0 = any"
        case .anyTakesTheLastFulfilledInput:
            return "p0 = fulfilled v1; p1 = fulfilled v2; p2 = any p0 p1"
        case .combinatorOverRunningHandlersPromiseRejected:
            return "p0 = pending; p1 = then p0 - ( p2 = race p1 -> v1 ) _; fulfil p0 v2"
        case .combinatorInHandlerSkipsPendingInputs:
            return "p0 = pending; p1 = rejected e1; p2 = then p0 - ( p3 = any p1 p2 -> v1 ) _; fulfil p0 v2"
        case .cancellationBecomesErrorPastThreeLinks:
            return "p0 = cancellable; " + chain(4, from: 0, "- ( -> V ) _") + "; cancel p0"
        case .cancellationSkipsPassThroughPastThree:
            return "p0 = cancellable; " + handlers(4, on: "p0", from: 1) { "- ( -> v\($0) ) _" } + "; cancel p0"
        case .rejectedAdoptionLeaks:
            return "p0 = pending; p1 = fulfilled v1; p2 = then p1 - ( -> adopt p0 ) _; reject p0 e1"
        case .wideFanOutLeaks:
            return "p0 = pending; " + handlers(5, on: "p0", from: 1) { "- ( -> v\($0) ) _" }
        }
    }
}
