// PromiseStateMachine.swift: the rules of a promise's resolution, as one value that changes only under the promise's
// lock. Promise.swift takes the lock, calls one transition, unlocks and then performs the action the transition
// returned.
//
// Names: `settle` is Google's "resolve" (`fulfill` or `reject`), the list is `ObserverList`, the lock `Lock`
// (FBLPromise's `@synchronized`), the trampoline `ObserverTrampoline` (inline observers only).
//
// The phase says who waits for the resolution:
// - `pending(list)`: not resolved; `list` holds the observers registered so far, in order.
// - `draining(list)`: resolved; the resolving thread is running the batch of observers it took, and `list` collects
//   those registered meanwhile, to run next, so that none overtakes an earlier one (Promises/A+ 2.2.6).
// - `resolved`: nothing waits; an observer registered from now on runs at once (on its queue).
//
// Transitions run under the promise's lock and never run user code; each returns what the promise does after
// unlocking:
//
//     from                        transition          action                    to
//     pending(list)               register            .wait                     pending(list + observer)
//     pending([])                 settle              .settledWithoutWaiters    resolved
//     pending(list)               settle              .drain(list)              draining([])
//     draining(list)              register            .wait                     draining(list + observer)
//     draining([])                afterBatch          .stopDraining             resolved
//     draining(list)              afterBatch          .drainNext(list)          draining([])
//     draining or resolved        settle              .alreadySettled           unchanged
//     resolved                    register            .runNow                   unchanged
//     pending(list)               takeForRelease      list, for `deinit`        resolved
//
// So the resolution is stored once (of racing `settle`s exactly one wins), and every observer of a promise that
// resolves receives it once, in registration order. A promise freed while pending hands its observers to `deinit`,
// which lets go of them unrun through the trampoline. Two rules set FBLStyle's order apart from the other styles, and
// keep Google's:
// - "none nested": while the resolving thread drains, every registration waits, even one that thread makes itself
//   from inside an observer it runs. It runs after the batch, in its turn, never nested inside the observer that
//   registered it. Bolts and PromiseKit run such a callback at once, nested (`.runNowOnDrainer`); FBL has no such
//   case, so its machine needs no token of the draining thread.
// - `afterBatch`: draining stops AFTER a batch, once a batch left nobody behind (as PromiseKitStyle; Bolts stops before
//   its last callback).
//
// The resolution itself (value or error) stays in two fields of the promise, not here: a generic struct holding a
// `Value?` costs the unspecialized `deinit` a lookup of its metadata; the phase's payloads are closures and an array,
// whose layout does not depend on `Value`, so the machine costs `deinit` nothing.

/// The phase of one promise and its transitions, which `Promise` calls under its lock (see the header).
@usableFromInline struct PromiseStateMachine<Value> {
    /// The observers of a promise of `Value`, in registration order.
    @usableFromInline typealias Observers = Promise<Value>.ObserverList

    /// Where a promise is in its life; each phase carries what it needs.
    @usableFromInline enum Phase {
        /// Not resolved: the observers waiting for the resolution.
        case pending(Observers)
        /// Resolved, while the resolving thread runs the batch it took out: the observers registered meanwhile.
        case draining(Observers)
        /// Resolved, and every observer has been handed the resolution.
        case resolved

        /// The phase as a failed precondition names it.
        @usableFromInline var name: String {
            switch self {
            case .pending: "pending"
            case .draining: "draining"
            case .resolved: "resolved"
            }
        }
    }

    /// What the promise does with an observer it registered.
    @usableFromInline enum RegisterAction: Equatable {
        /// Nothing: the observer joined the list, and the resolving thread will run it.
        case wait
        /// Run it now with the stored resolution: the promise is resolved and no observer waits.
        case runNow
    }

    /// What the promise does after it tried to settle.
    @usableFromInline enum SettleAction {
        /// Nothing: it was settled before (store nothing).
        case alreadySettled
        /// Store the resolution; no observer waits for it.
        case settledWithoutWaiters
        /// Store the resolution, then run these observers, then call `afterBatch()`.
        case drain(Observers)
    }

    /// What the resolving thread does after it ran a batch.
    @usableFromInline enum DrainAction {
        /// Run the observers registered while the batch ran, then call `afterBatch()` again.
        case drainNext(Observers)
        /// Nothing: the promise is now `resolved`.
        case stopDraining
    }

    /// The whole mutable state of the promise but its resolution (see the header).
    @usableFromInline var phase: Phase

    /// A machine in `phase`: `.pending(Observers())` for a pending promise, `.resolved` for one created resolved.
    @inlinable init(phase: Phase) {
        self.phase = phase
    }

    /// Whether the promise is not resolved yet.
    @inlinable @inline(__always) var isPending: Bool {
        if case .pending = phase { true } else { false }
    }

    /// Registers `observer`: it waits while the promise is pending or draining, and runs now once it is resolved.
    @inlinable mutating func register(_ observer: Promise<Value>.Observer) -> RegisterAction {
        switch phase.take() {
        case .pending(var observers):
            observers.append(observer)
            phase = .pending(observers)
            return .wait
        case .draining(var observers):
            // The rule "none nested" (see the header): it waits for its turn, even when the draining thread itself
            // registers it from inside an observer it runs.
            observers.append(observer)
            phase = .draining(observers)
            return .wait
        case .resolved:
            phase = .resolved
            return .runNow
        }
    }

    /// Settles the promise (Google's "resolve"): the first call takes the observers out; any later one changes nothing.
    @inlinable mutating func settle() -> SettleAction {
        switch phase.take() {
        case .pending(let observers):
            if observers.isEmpty {
                phase = .resolved
                return .settledWithoutWaiters
            }
            phase = .draining(Observers())
            return .drain(observers)
        case .draining(let registered):
            phase = .draining(registered)
            return .alreadySettled
        case .resolved:
            phase = .resolved
            return .alreadySettled
        }
    }

    /// Called by the resolving thread after it ran a batch: stops draining after the batch if nobody registered
    /// meanwhile, and otherwise hands it those who did.
    @inlinable mutating func afterBatch() -> DrainAction {
        switch phase.take() {
        case .draining(let registered):
            if registered.isEmpty {
                phase = .resolved
                return .stopDraining
            }
            phase = .draining(Observers())
            return .drainNext(registered)
        case let found:
            preconditionFailure("FBLStyle: afterBatch() called on a promise that is not draining (it is \(found.name))")
        }
    }

    /// For the `deinit` of a pending promise: takes its observers out (the machine is then `resolved`), so that the
    /// caller holds their last reference; `nil` if none waits or the promise is not pending. (Not through
    /// `Phase.take()`: `deinit` runs unspecialized, where moving the whole phase would look up the metadata of
    /// `Phase`.)
    @inlinable @inline(__always) mutating func takeForRelease() -> Observers? {
        guard case .pending(let observers) = phase, !observers.isEmpty else { return nil }
        phase = .resolved
        return observers
    }
}

extension PromiseStateMachine.Phase {
    /// Moves the phase out, leaving `.resolved` until the transition stores the next one: a list taken out of it is
    /// then the only copy, so appending to it does not copy its array.
    @inlinable @inline(__always)
    mutating func take() -> Self {
        let taken = consume self
        self = .resolved
        return taken
    }
}
