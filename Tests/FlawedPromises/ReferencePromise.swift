// A small promise written from scratch, to show how any promise type plugs into PromiseConformance.
//
// Mechanism: a state (pending with a list of callbacks, fulfilled, rejected) under a lock (`Locked`, an `NSLock`:
// `Synchronization.Mutex` would do, but the thread sanitizer on Linux does not see its futex and reports false
// races). `then` appends a callback while pending, or dispatches it at once when settled; settling swaps the state
// and dispatches every callback. Callbacks always run asynchronously on their queue (A+ 2.2.4) and are enqueued while
// the lock is held, so handlers registered from one thread run in their registration order even while another thread
// settles the promise. A promise resolved with another promise (or a foreign thenable) is "locked in": later resolve
// calls are ignored, and it settles when the other one does. Callbacks keep their derived promise apart from their
// closure, so `deinit` can release a long unsettled chain iteratively instead of recursing once per link.
//
// With a `SubtleFlaw` (nil for the correct reference), one line guarded by that flaw makes the promise wrong in one
// subtle way, which only a program of a certain shape shows (SubtleFlaw.swift).
import Dispatch
import TestSupport

/// Why a reference promise was rejected by the promise itself.
public enum ReferencePromiseError: Error {
    /// A promise was resolved with itself (A+ 2.3.1).
    case resolvedWithItself
    /// `any` of no promise.
    case noInput
    /// A cancellation wrapped on its way down a chain (``SubtleFlaw/cancellationBecomesErrorPastThreeLinks`` only).
    case cancelledUpstream
    /// A third adopter turned away (``SubtleFlaw/adoptersPastTheSecondRejected`` only).
    case tooManyAdopters
}

/// What a handler of ``ReferencePromise/then(on:_:_:)`` resolves the derived promise with.
public enum Step<Value: Sendable>: Sendable {
    case value(Value)
    case promise(ReferencePromise<Value>)
}

/// A promise written from scratch (see the top of this file), with an optional ``SubtleFlaw``.
public final class ReferencePromise<Value: Sendable>: @unchecked Sendable {
    private struct Callback: Sendable {
        let queue: DispatchQueue
        /// The derived (or adopting) promise, kept apart from `run` so that `deinit` can release it iteratively.
        let child: ReferencePromise
        /// What the callback is, for the flaws that treat some callbacks apart: an adoption, a `then` with
        /// onRejected only, a `then` without onRejected.
        var adopts = false
        var catchOnly = false
        var passesRejectionOn = false
        /// Registered with no queue: it runs on ``referenceDefaultQueue(_:)``.
        var unqueued = false
        /// Run with this error instead of the outcome (``SubtleFlaw/adoptersPastTheSecondRejected`` only).
        var rejectsWith: (any Error)?
        let run: @Sendable (Result<Value, any Error>, ReferencePromise) -> Void
    }

    private enum State {
        case pending([Callback])
        case settled(Result<Value, any Error>)
    }

    /// What this promise gets wrong, or nil for the correct reference; promises derived from it share it.
    public let flaw: SubtleFlaw?
    /// How many `then` links lie between this promise and the promise its chain started from (0 for a root).
    let depth: Int
    /// The promise whose `then` made this one, if any (compared, never dereferenced).
    let source: ObjectIdentifier?
    private let state = Locked<State>(.pending([]))
    /// Set once resolved (settled, or locked in to another promise or thenable); later resolutions are ignored.
    private let resolved = Locked(false)
    /// What a leaking flaw makes the promise hold on to (nothing, for the correct reference).
    private let leak = Locked<SubtleFlawLeak?>(nil)
    /// Whether the promise this one adopted (returned by a handler) is still waiting for its first resolution (the
    /// flaws about adopting a promise that adopts only).
    private let adoptedIsWaiting = Locked<(@Sendable () -> Bool)?>(nil)
    /// The promise whose `then` made this one (``SubtleFlaw/adoptionShortcutFollowsTheParent`` only).
    private let parent = Locked<(@Sendable () -> ReferencePromise?)?>(nil)
    /// The delivery buffer that pass-through links of this promise hand their derived promise's settlement to
    /// (``SubtleFlaw/passThroughDeliveryBufferOverwritesPastTwo`` and ``SubtleFlaw/passThroughDeliveryBufferDropsPastTwo``
    /// only).
    private let passThroughBuffer = DeliveryBuffer<Value>()

    /// A pending promise with `flaw` (nil: the correct reference).
    public init(flaw: SubtleFlaw? = nil) {
        self.flaw = flaw
        self.depth = 0
        self.source = nil
    }

    private init(flaw: SubtleFlaw?, derivedFrom source: ReferencePromise) {
        self.flaw = flaw
        self.depth = source.depth + 1
        self.source = ObjectIdentifier(source)
        if flaw == .adoptionShortcutFollowsTheParent { parent.withLock { $0 = { [weak source] in source } } }
    }

    /// A promise made fulfilled with `value`.
    public convenience init(value: Value, flaw: SubtleFlaw? = nil) {
        self.init(flaw: flaw)
        resolved.withLock { $0 = true }
        state.withLock { $0 = .settled(.success(value)) }
    }

    /// A promise made rejected with `error`.
    public convenience init(error: any Error, flaw: SubtleFlaw? = nil) {
        self.init(flaw: flaw)
        resolved.withLock { $0 = true }
        state.withLock { $0 = .settled(.failure(error)) }
    }

    deinit {
        var links = detachChildren()
        while var link = links.popLast() {
            // Only we hold it: empty it now, so that its own deinit, when `link` goes, has nothing to recurse into.
            if isKnownUniquelyReferenced(&link) { links += link.detachChildren() }
        }
    }

    // MARK: Resolving (the first call wins)

    /// Fulfils the promise, unless it is resolved already.
    public func fulfill(_ value: Value) {
        if claim() { settle(.success(value)) }
    }

    /// Rejects the promise, unless it is resolved already.
    public func reject(_ error: any Error) {
        if claim() { settle(.failure(error)) }
    }

    /// Resolves with another promise: settles when it settles (A+ 2.3.2).
    public func adopt(_ other: ReferencePromise<Value>) {
        guard claim() else { return }
        if [
            .adoptingAnAdoptingPromiseNeverSettles, .rejectionThroughTwoAdoptionsLost,
            .adoptionShortcutFollowsTheParent,
        ]
        .contains(flaw) {
            adoptedIsWaiting.withLock { $0 = { [weak other] in other.map { !$0.resolved.withLock { $0 } } ?? false } }
        }
        follow(other)
    }

    /// Resolves with a foreign promise-like `then` function (A+ 2.3.3): the first callback call wins, a throw after
    /// one is ignored, a throw before any rejects. `resolve` receives the promise's own resolver functions.
    public func assimilate(
        _ then: (
            _ resolve: @escaping @Sendable (Step<Value>) -> Void, _ reject: @escaping @Sendable (any Error) -> Void
        )
            throws -> Void
    ) {
        guard claim() else { return }
        let first = OnceFlag()
        let once: @Sendable () -> Bool = { first.claim() }
        do {
            try then(
                { step in
                    guard once() else { return }
                    switch step {
                    case .value(let value): self.settle(.success(value))
                    case .promise(let other): self.follow(other)
                    }
                },
                { error in if once() { self.settle(.failure(error)) } })
        } catch {
            if once() { settle(.failure(error)) }
        }
    }

    private func claim() -> Bool {
        resolved.withLock { resolved in
            let first = !resolved
            resolved = true
            return first
        }
    }

    private func follow(_ other: ReferencePromise<Value>) {
        if other === self || (flaw == .siblingAdoptionRejectedAsCycle && other.source != nil && other.source == source)
        {
            settle(.failure(ReferencePromiseError.resolvedWithItself))
            return
        }
        if flaw == .adoptingAnAdoptingPromiseNeverSettles, other.adoptsAPendingPromise { return }
        var other = other
        if flaw == .adoptionShortcutFollowsTheParent, other.adoptsAPendingPromise,
            let parent = other.parent.withLock({ $0 })?()
        {
            other = parent
        }
        let flaw = flaw
        other.subscribe(
            Callback(queue: .global(), child: self, adopts: true) { result, child in
                if flaw == .rejectedAdoptionLeaks, case .failure = result { child.holdOn(to: child) }
                child.settle(result, adopted: true)
            })
    }

    private func settle(_ result: Result<Value, any Error>, adopted: Bool = false) {
        let runNow = state.withLock { state -> [Callback] in
            guard case .pending(let registered) = state else { return [] }
            state = .settled(result)
            let callbacks = dispatchList(registered, result, adopted: adopted)
            if flaw == .settleInsideHandlerRunsInline, RunningHandler.isRunning { return callbacks }
            for callback in callbacks { Self.dispatch(callback, result) }
            flushPassThroughBufferLater()
            return []
        }
        for callback in runNow { callback.run(result, callback.child) }
    }

    private func subscribe(_ callback: Callback, runsNowIfSettled: Bool = false) {
        let runNow = state.withLock { state -> Result<Value, any Error>? in
            switch state {
            case .pending(var callbacks):
                if flaw == .thirdAdopterForgotten, callback.adopts, callbacks.count(where: \.adopts) >= 2 { return nil }
                if flaw == .callbacksAddedDuringOwnHandlerLost, RunningHandler.isRunning(for: self) { return nil }
                state = .pending([])  // keeps `callbacks` uniquely referenced while appending
                callbacks.append(callback)
                if flaw == .wideFanOutLeaks, callbacks.count == 5 { holdOn(to: self) }
                state = .pending(callbacks)
                return nil
            case .settled(let result):
                if runsNowIfSettled { return result }
                if flaw == .queuedThenInsideOwnHandlerLost, !callback.unqueued, !callback.adopts,
                    RunningHandler.isRunningUnqueued(of: self)
                {
                    return nil
                }
                if flaw == .queuedThenInsideOwnHandlerRunsInline, !callback.unqueued, !callback.adopts,
                    RunningHandler.isRunningUnqueued(of: self)
                {
                    return result
                }
                if flaw == .thenInsideOwnHandlerRunsTwice, callback.unqueued, RunningHandler.isRunning(of: self) {
                    Self.dispatch(callback, result)
                }
                if flaw == .unqueuedHandlerAddedInsideRunsFirst, callback.unqueued,
                    RunningHandler.isRunningUnqueued(of: self)
                {
                    RunningHandler.runWhenTheHandlerReturns { callback.run(result, callback.child) }
                    return nil
                }
                Self.dispatch(callback, result)
                flushPassThroughBufferLater()
                return nil
            }
        }
        if let runNow { callback.run(runNow, callback.child) }
    }

    private static func dispatch(_ callback: Callback, _ result: Result<Value, any Error>) {
        let result = callback.rejectsWith.map { .failure($0) } ?? result
        callback.queue.async { callback.run(result, callback.child) }
    }

    // MARK: then

    /// Registers handlers; `queue` nil means ``referenceDefaultQueue(_:)``, a serial queue, so handlers with no queue run
    /// one at a time in the order of their `then` calls (A+ 2.2.6). A nil handler passes the value or error on.
    public func then(
        on queue: DispatchQueue? = nil, _ onFulfilled: (@Sendable (Value) throws -> Step<Value>)?,
        _ onRejected: (@Sendable (any Error) throws -> Step<Value>)? = nil
    ) -> ReferencePromise<Value> {
        let derived = ReferencePromise<Value>(flaw: flaw, derivedFrom: self)
        if flaw == .thenOnResolvingPromiseRejectedAsCycle, RunningHandler.isRunning(for: self) {
            derived.reject(ReferencePromiseError.resolvedWithItself)
            return derived
        }
        let flaw = flaw
        let handling = RunningHandler(of: self, flawed: flaw != nil, unqueued: queue == nil)
        let runsOn = queue ?? referenceDefaultQueue(flaw)
        let buffer = passThroughBuffer
        subscribe(
            Callback(
                queue: runsOn, child: derived,
                catchOnly: onFulfilled == nil && onRejected != nil, passesRejectionOn: onRejected == nil,
                unqueued: queue == nil
            ) { result, child in
                let derived = child
                do {
                    var step: Step<Value>
                    switch result {
                    case .success(let value):
                        guard let onFulfilled else {
                            // No handler: pass the value on (A+ 2.2.7.3).
                            Self.passOn(.success(value), to: derived, buffer: buffer, on: runsOn)
                            return
                        }
                        step = try handling.run(derived: derived) { try onFulfilled(value) }
                        if flaw == .deepHandlerValueIgnored, derived.depth > 4, case .value = step {
                            step = .value(value)
                        }
                    case .failure(let error):
                        guard let onRejected else {
                            let passed =
                                flaw == .cancellationBecomesErrorPastThreeLinks && derived.depth > 3
                                    && error is CancellationError ? ReferencePromiseError.cancelledUpstream : error
                            Self.passOn(.failure(passed), to: derived, buffer: buffer, on: runsOn)
                            return
                        }
                        step = try handling.run(derived: derived) { try onRejected(error) }
                        if flaw == .deepRecoveryIgnored, derived.depth > 6, case .value = step { throw error }
                    }
                    switch step {
                    case .value(let value): derived.fulfill(value)
                    case .promise(let other): derived.adopt(other)
                    }
                } catch {
                    derived.reject(error)
                }
            }, runsNowIfSettled: flaw == .thenInsideOtherHandlerRunsInline && RunningHandler.isRunning(otherThan: self))
        return derived
    }
}

extension ReferencePromise {
    /// Empties the callback list of a pending promise, returning the promises it derived.
    private func detachChildren() -> [ReferencePromise] {
        state.withLock { state in
            guard case .pending(let callbacks) = state else { return [] }
            state = .pending([])
            return callbacks.map(\.child)
        }
    }

    /// Settles `derived`, a pass-through link's promise, with `result`: at once, or, for the flaws of a delivery buffer
    /// when the link has no queue and `derived` has more than one callback, through `buffer`, the two-entry buffer of
    /// the promise the link is on, which that promise empties once the callbacks it dispatched have run.
    private static func passOn(
        _ result: Result<Value, any Error>, to derived: ReferencePromise, buffer: DeliveryBuffer<Value>,
        on queue: DispatchQueue
    ) {
        if let flaw = derived.flaw, flaw.buffersPassThroughDeliveries, queue === referenceDefaultQueue(flaw),
            derived.callbackCount > 1
        {
            buffer.put(derived, result, replacingTheLast: flaw == .passThroughDeliveryBufferOverwritesPastTwo)
            return
        }
        switch result {
        case .success(let value): derived.fulfill(value)
        case .failure(let error): derived.reject(error)
        }
    }

    /// Empties the pass-through buffer once the callbacks dispatched so far to the default queue have run (the flaws of
    /// a delivery buffer only; called under the lock, after dispatching).
    private func flushPassThroughBufferLater() {
        guard let flaw, flaw.buffersPassThroughDeliveries else { return }
        let buffer = passThroughBuffer
        referenceDefaultQueue(flaw).async { buffer.deliverAll() }
    }

    /// How many callbacks the promise holds while pending (0 once settled).
    private var callbackCount: Int { callbackCountOrNil ?? 0 }

    /// Whether the promise adopted (from a handler) another one still waiting for its first resolution: not settled,
    /// nor resolved with a promise or a thenable (the flaws about adopting a promise that adopts only).
    private var adoptsAPendingPromise: Bool { adoptedIsWaiting.withLock { $0 }?() ?? false }

    /// The number of callbacks while pending, nil once settled.
    private var callbackCountOrNil: Int? {
        state.withLock { state in
            if case .pending(let callbacks) = state { return callbacks.count }
            return nil
        }
    }

    /// Whether the promise is settled already.
    var isSettled: Bool { callbackCountOrNil == nil }

    /// Whether the promise is rejected already.
    var isRejected: Bool {
        state.withLock { state in
            if case .settled(.failure) = state { return true }
            return false
        }
    }

    /// Keeps `object` for as long as the promise lives (a leaking flaw's hold; never for the correct reference).
    private func holdOn(to object: AnyObject) {
        leak.withLock { $0 = SubtleFlawLeak(object) }
    }

    /// The callbacks a settlement dispatches, in order: those registered, as registered, but for the flaws that
    /// reorder, drop or repeat some.
    private func dispatchList(_ callbacks: [Callback], _ result: Result<Value, any Error>, adopted: Bool) -> [Callback]
    {
        guard let flaw else { return callbacks }
        var callbacks = callbacks
        let error: (any Error)? = if case .failure(let error) = result { error } else { nil }
        if flaw == .settleInsideQueuedHandlerSkipsUnqueuedHandlers, RunningHandler.isRunningQueued, callbacks.count > 1
        {
            callbacks.removeAll(where: \.unqueued)
        }
        if flaw == .rejectionThroughTwoAdoptionsLost, adopted, error != nil, adoptedIsWaiting.withLock({ $0 }) != nil {
            callbacks.removeAll(where: \.adopts)
        }
        if flaw == .adoptersPastTheSecondRejected {
            let adopters = callbacks.indices.filter { callbacks[$0].adopts }
            for index in adopters.dropFirst(2) { callbacks[index].rejectsWith = ReferencePromiseError.tooManyAdopters }
        }
        if flaw == .rejectionRunsLateHandlersFirst, error != nil, callbacks.count > 4 {
            callbacks = Array(callbacks[4...] + callbacks[..<4])
        }
        if flaw == .unqueuedHandlersPastSecondRunLastFirst {
            let unqueued = callbacks.indices.filter { callbacks[$0].unqueued }
            if unqueued.count > 2 {
                let late = Array(unqueued[2...])
                for (index, from) in zip(late, late.reversed().map { callbacks[$0] }) { callbacks[index] = from }
            }
        }
        if flaw == .catchHandlersRunLast, error != nil {
            callbacks = callbacks.filter { !$0.catchOnly } + callbacks.filter(\.catchOnly)
        }
        if flaw == .rejectionDropsSixthHandler, error != nil, callbacks.count > 6 { callbacks.remove(at: 5) }
        if flaw == .adoptionRunsFirstHandlerTwice, adopted, callbacks.count > 2 { callbacks.append(callbacks[0]) }
        if flaw == .cancellationSkipsPassThroughPastThree, error is CancellationError, callbacks.count > 3 {
            callbacks.removeAll(where: \.passesRejectionOn)
        }
        return callbacks
    }
}

/// Where a reference promise runs a handler registered with no queue: one serial queue for every promise with the
/// same flaw (or none), so that the tests that run different flaws at once do not wait on each other's handlers.
private let referenceDefaultQueues: [SubtleFlaw?: DispatchQueue] = Dictionary(
    uniqueKeysWithValues: ([nil] + SubtleFlaw.allCases).map { flaw in
        (flaw, DispatchQueue(label: "ReferencePromise default \(flaw?.rawValue ?? "(no flaw)")"))
    })

/// The serial queue where reference promises with `flaw` run handlers registered with no queue.
func referenceDefaultQueue(_ flaw: SubtleFlaw?) -> DispatchQueue { referenceDefaultQueues[flaw]! }

/// A delivery buffer of two entries, each a promise to settle and its result
/// (``SubtleFlaw/passThroughDeliveryBufferOverwritesPastTwo`` and ``SubtleFlaw/passThroughDeliveryBufferDropsPastTwo``
/// only).
final class DeliveryBuffer<Value: Sendable>: Sendable {
    private let entries = Locked<[(promise: ReferencePromise<Value>, result: Result<Value, any Error>)]>([])

    /// Adds `promise` and its result; when the buffer is full, replaces its last entry or drops the new one.
    func put(_ promise: ReferencePromise<Value>, _ result: Result<Value, any Error>, replacingTheLast: Bool) {
        entries.withLock { entries in
            if entries.count < 2 {
                entries.append((promise, result))
            } else if replacingTheLast {
                entries[1] = (promise, result)
            }
        }
    }

    /// Settles the promise of every entry, and empties the buffer.
    func deliverAll() {
        let taken = entries.withLock { entries in
            defer { entries = [] }
            return entries
        }
        for (promise, result) in taken {
            switch result {
            case .success(let value): promise.fulfill(value)
            case .failure(let error): promise.reject(error)
            }
        }
    }
}

extension SubtleFlaw {
    /// Whether the flaw hands pass-through deliveries to a two-entry buffer.
    fileprivate var buffersPassThroughDeliveries: Bool {
        self == .passThroughDeliveryBufferOverwritesPastTwo || self == .passThroughDeliveryBufferDropsPastTwo
    }
}

/// A flag claimed by the first caller only.
final class OnceFlag: Sendable {
    private let flag = Locked(false)

    func claim() -> Bool {
        flag.withLock { claimed in
            let first = !claimed
            claimed = true
            return first
        }
    }
}
