// BFTaskStateMachine.swift: the rules of a task's completion, as one value that changes only under the task's lock.
//
// Names: `settle` is Bolts' trySetState, the list is `BFCallbacks`, the lock `Lock` (PromisePlumbing), the trampoline
// `BFTrampoline`.
//
// The phase says who waits for the outcome:
// - `pending(list)`: no outcome yet; `list` holds the callbacks registered so far, in order.
// - `draining(list, drainer)`: settled; the thread `drainer` is running the callbacks it took (nil while that run is
//   enqueued on the trampoline), and `list` collects those other threads register meanwhile: the drainer runs them
//   next, so that none overtakes one registered before it (Promises/A+ 2.2.6).
// - `completed`: nothing waits; a callback registered from now on runs at once on the registering thread.
//
// Transitions run under the task's lock and never run user code; each returns what the task does outside the lock.
// "me" is the thread calling the transition:
//
//     from                        transition          action                    to
//     pending(list)               register            .wait                     pending(list + callback)
//     pending([])                 settle              .settledWithoutWaiters    completed
//     pending(list)               settle              .drain(list)              draining([], me)
//     pending(list)               settle, deep        .enqueueDrain             draining(list, nil)
//     draining(list, nil)         resumeDrain         (list, outcome)           draining([], me)
//     draining(list, not me)      register            .wait                     draining(list + callback, not me)
//     draining(list, me)          register            .runNowOnDrainer          unchanged
//     draining([], drainer)       beforeLastCallback  .stopDraining             completed
//     draining(list, drainer)     beforeLastCallback  .drainNext(list)          draining([], drainer)
//     draining or completed       settle              .alreadySettled           unchanged
//     completed                   register            .runNow                   unchanged
//
// So the outcome is stored once (of racing `settle`s exactly one wins), and every callback of a task that settles runs
// exactly once: it joins a list that exactly one transition hands out, or it runs now. A task freed while pending runs
// none: `takeForRelease` hands its list to `deinit`, which frees the callbacks unrun. Two rules set BoltsStyle's order apart from the
// other styles, and keep Bolts-Swift's:
// - `.runNowOnDrainer`: a callback the drainer registers itself (from a callback it runs, or because a continuation
//   returned this very task) runs at once, nested, ahead of the rest of the batch and of what other threads registered
//   meanwhile: with A and B waiting, A registers C as it runs, and the order is A, C, B. No thread could run C sooner.
// - `beforeLastCallback`: draining stops before the last callback of a batch, not after it. The drainer runs all but
//   the last, then asks: with nothing registered meanwhile the task is `completed` before the last one runs, so a
//   callback registered while the last runs runs at once on its own thread.
// `settle` is deep when the settling thread is past `.immediate`'s depth limit: the drain is enqueued on the thread's
// trampoline, which calls `resumeDrain` once the stack has unwound; until then every registration waits.
//
// The outcome stays in `BFStateStorage` rather than in the phase: a payload of type `TResult` would make the
// task's unspecialized `deinit` look up generic metadata. Every payload here (closures, arrays of closures, a token)
// has a layout that does not depend on `TResult`, for the same reason.

import PromisePlumbing

/// A task's phase and outcome, with the transitions between phases. The owning ``BFTask`` calls every transition under
/// its lock and performs the returned action outside it.
@usableFromInline
struct BFTaskStateMachine<TResult> {
    /// Who waits for the outcome; see the file's header.
    @usableFromInline
    enum Phase {
        /// No outcome yet; the callbacks registered so far, in order.
        case pending(BFCallbacks<TResult>)
        /// Settled; the callbacks registered while `drainer` (nil: the trampoline, later) runs those it took.
        case draining(BFCallbacks<TResult>, drainer: Trampoline.Token?)
        /// Settled, and nothing waits.
        case completed

        /// The phase as a failed precondition names it.
        @usableFromInline var name: String {
            switch self {
            case .pending: "pending"
            case .draining(_, .some): "draining"
            case .draining(_, .none): "draining (the drain enqueued)"
            case .completed: "completed"
            }
        }
    }

    /// What `register` tells the task to do with the callback.
    @usableFromInline
    enum RegisterAction {
        /// The callback joined the list; the thread that drains runs it.
        case wait
        /// The task completed and drains no more: run the callback now with this state.
        case runNow(BFTaskState<TResult>)
        /// The registering thread is the one draining: run the callback now, nested, with this state.
        case runNowOnDrainer(BFTaskState<TResult>)
    }

    /// What `settle` tells the settling thread to do.
    @usableFromInline
    enum SettleAction {
        /// The task had settled already: nothing changed.
        case alreadySettled
        /// Settled, and no callback was waiting.
        case settledWithoutWaiters
        /// Settled: run this batch of callbacks, in order, through `beforeLastCallback`.
        case drain(BFCallbacks<TResult>)
        /// Settled too deep on the stack: enqueue the drain on this thread's trampoline, which calls `resumeDrain`.
        case enqueueDrain
    }

    /// What the drainer does before the last callback of its batch.
    @usableFromInline
    enum DrainAction {
        /// Run the last callback, then this batch, registered meanwhile.
        case drainNext(BFCallbacks<TResult>)
        /// The task is completed: run the last callback and stop.
        case stopDraining
    }

    /// Who waits for the outcome.
    @usableFromInline var phase: Phase
    /// The outcome once the task settled; `.pending` before.
    @usableFromInline var outcome = BFStateStorage()

    /// A pending task's machine.
    @inlinable
    init() {
        phase = .pending(.none)
    }

    /// The machine of a task created completed with `state`.
    @inlinable
    init(completedWith state: BFTaskState<TResult>) {
        phase = .completed
        outcome.store(state)
    }

    /// The state as callers see it: pending until settled, then the outcome.
    @inlinable
    mutating func currentState() -> BFTaskState<TResult> {
        outcome.read(as: TResult.self)
    }

    /// Registers `callback`, which `thread` adds (evaluated only while the task drains).
    @inlinable
    mutating func register(
        _ callback: @escaping BFCallback<TResult>, on thread: @autoclosure () -> Trampoline.Token
    ) -> RegisterAction {
        switch phase.take() {
        case .pending(var list):
            list.append(callback)
            phase = .pending(list)
            return .wait
        case .draining(var list, let drainer) where drainer != thread():
            list.append(callback)
            phase = .draining(list, drainer: drainer)
            return .wait
        case .draining(let list, let drainer):
            phase = .draining(list, drainer: drainer)
            return .runNowOnDrainer(outcome.read(as: TResult.self))
        case .completed:
            phase = .completed
            return .runNow(outcome.read(as: TResult.self))
        }
    }

    /// Settles the task with `state`, on `thread`; `deep` says the thread is past `.immediate`'s depth limit.
    @inlinable
    mutating func settle(_ state: BFTaskState<TResult>, on thread: Trampoline.Token, deep: Bool) -> SettleAction {
        switch phase.take() {
        case .pending(.none):
            outcome.store(state)
            phase = .completed
            return .settledWithoutWaiters
        case .pending(let list) where deep:
            outcome.store(state)
            phase = .draining(list, drainer: nil)
            return .enqueueDrain
        case .pending(let list):
            outcome.store(state)
            phase = .draining(.none, drainer: thread)
            return .drain(list)
        case let settled:
            phase = settled
            return .alreadySettled
        }
    }

    /// Bolts' rule: called by the drainer before it runs the last callback of a batch.
    @inlinable
    mutating func beforeLastCallback() -> DrainAction {
        switch phase.take() {
        case .draining(.none, _):
            phase = .completed
            return .stopDraining
        case .draining(let list, let drainer):
            phase = .draining(.none, drainer: drainer)
            return .drainNext(list)
        case let found:
            preconditionFailure("BoltsStyle: only a draining task runs its callbacks (the task is \(found.name))")
        }
    }

    /// Starts the drain that `settle` enqueued, on `thread`: returns the batch to run and the outcome.
    @inlinable
    mutating func resumeDrain(on thread: Trampoline.Token) -> (BFCallbacks<TResult>, BFTaskState<TResult>) {
        let found = phase.take()
        guard case .draining(let list, nil) = found else {
            preconditionFailure("BoltsStyle: no drain was enqueued (the task is \(found.name))")
        }
        phase = .draining(.none, drainer: thread)
        return (list, outcome.read(as: TResult.self))
    }

    /// Takes the callbacks of a pending task being freed, or nil when it has none (the common case, which then needs
    /// no generic work in `deinit`). Inlined so that the unspecialized `deinit` needs no metadata to call it.
    @inlinable @inline(__always)
    mutating func takeForRelease() -> BFCallbacks<TResult>? {
        switch phase.take() {
        case .pending(.none):
            phase = .pending(.none)
            return nil
        case .pending(let list):
            phase = .pending(.none)
            return list
        case .completed:
            phase = .completed
            return nil
        case .draining:
            // Named by hand, not through `Phase.name`: binding the phase here would make the unspecialized `deinit`
            // look up the metadata of `Phase`.
            preconditionFailure("BoltsStyle: a draining task is still referenced by its drainer (the task is draining)")
        }
    }
}

extension BFTaskStateMachine.Phase {
    /// Moves the phase out, leaving `.completed` until the transition stores the next one: the list in the payload
    /// moves along instead of being copied (no reference counting, and an array keeps one reference while it grows).
    @inlinable @inline(__always)
    mutating func take() -> Self {
        let taken = consume self
        self = .completed
        return taken
    }
}
