// BoxStateMachine.swift: the rules of a box's sealing (every `Promise` and `Guarantee`), as one value that changes only
// inside the box's barrier.
//
// Names: `settle` is PromiseKit's `seal`, the list is `Handlers`, the lock `Barrier` (in place of PromiseKit's
// concurrent `DispatchQueue` per promise), the trampoline `HandlerTrampoline`; the phase is PromiseKit's `Sealant`
// (`pending(Handlers)`, `resolved(R)`) with one phase more, `draining`.
//
// The phase says who waits for the value:
// - `pending(list)`: not sealed; `list` holds the handlers piped so far, in order.
// - `draining(list, drainer)`: sealed; the thread `drainer` is running the handlers it took (nil while that run is
//   enqueued on the trampoline), and `list` collects those other threads pipe meanwhile: the drainer runs them next,
//   so that none overtakes one piped before it (Promises/A+ 2.2.6; PromiseKit runs them at once, the race the FIXME
//   in its `EmptyBox.seal` names).
// - `sealed`: nothing waits; a handler piped from now on runs at once on the piping thread.
//
// Transitions run inside the barrier's write and never run user code; each returns what the box does after leaving
// the barrier (Box.swift). "me" is the thread calling the transition:
//
//     from                        transition          action                    to
//     pending(list)               register            .wait                     pending(list + handler)
//     pending([])                 settle              .settledWithoutWaiters    sealed
//     pending(list)               settle              .drain(list)              draining([], me)
//     pending(list)               settle, deep        .enqueueDrain             draining(list, nil)
//     draining(list, nil)         resumeDrain         (list, value)             draining([], me)
//     draining(list, not me)      register            .wait                     draining(list + handler, not me)
//     draining(list, me)          register            .runNowOnDrainer          unchanged
//     draining([], drainer)       afterBatch          .stopDraining             sealed
//     draining(list, drainer)     afterBatch          .drainNext(list)          draining([], drainer)
//     draining or sealed          settle              .alreadySettled           unchanged
//     sealed                      register            .runNow                   unchanged
//     pending(list)               takeForRelease      list, for `deinit`        pending([])
//
// So the value is stored once, when the box leaves `pending`, and never changes; every handler piped to a box that
// seals runs once, with the value, in the order piped but for `.runNowOnDrainer`. A box freed while pending runs none:
// `takeForRelease` hands its list to `deinit`, which releases the handlers unrun through the trampoline, one at a
// time. Two rules set PromiseKitStyle's order apart from the other styles, and keep PromiseKit's:
// - `.runNowOnDrainer`: a handler the drainer pipes itself (from a handler it runs) runs at once, nested, ahead of the
//   handlers waiting: if handler A pipes C while B waits, the order is A, C, B (unless the thread is at the
//   trampoline's depth limit: the box runs C through the trampoline, which then enqueues it, after B).
// - `afterBatch`: draining stops AFTER a batch (PromiseKit's `seal` runs its one batch and stops; Bolts stops before
//   its last callback): `.drainNext(list)` if handlers were piped while the batch ran, else `.stopDraining`.
// `settle` is deep when the sealing thread is at the trampoline's depth limit: the drain is enqueued on the thread's
// trampoline, which calls `resumeDrain` once the stack has unwound; until then every registration waits.
//
// The value is in `storage` from the moment the box leaves `pending`: raw words (`RawStorage`, PromisePlumbing). Every
// payload of the phase (closures, a token) has a layout that does not depend on `R`, so that the unspecialized
// `PMKBox.deinit` never looks up generic metadata.

import PromisePlumbing

/// A box's phase and sealed value, and the transitions between phases (see the file's header).
@usableFromInline
struct BoxStateMachine<R> {
    /// Where the box is in its life; each case carries what exists only then.
    @usableFromInline
    enum Phase {
        /// Not sealed: the handlers piped so far.
        case pending(Handlers<R>)
        /// Sealed, while the thread `drainer` runs the handlers it took (nil while that run is enqueued): the
        /// handlers piped meanwhile, which it runs next.
        case draining(Handlers<R>, drainer: Trampoline.Token?)
        /// Sealed and drained.
        case sealed

        /// The phase as a failed precondition names it.
        @usableFromInline var name: String {
            switch self {
            case .pending: "pending"
            case .draining(_, .some): "draining"
            case .draining(_, .none): "draining (the drain enqueued)"
            case .sealed: "sealed"
            }
        }
    }

    /// What `PMKBox.pipe` does after leaving the barrier.
    @usableFromInline
    enum RegisterAction {
        /// Nothing: the handler joined the list, and the thread that seals or drains the box runs it.
        case wait
        /// Run the handler now with the value: the box is sealed and drained.
        case runNow(R)
        /// Run the handler now with the value, nested: the calling thread is the one draining the box.
        case runNowOnDrainer(R)
    }

    /// What `PMKBox.seal` does after leaving the barrier.
    @usableFromInline
    enum SettleAction {
        /// Nothing, and report failure: the box was sealed before.
        case alreadySettled
        /// Nothing: the box is sealed and no handler was waiting.
        case settledWithoutWaiters
        /// Run these handlers (the list taken), then ask `afterBatch()`.
        case drain(Handlers<R>)
        /// Enqueue `PMKBox.resumeDrain` on this thread's trampoline: the thread is too deep to run handlers now.
        case enqueueDrain
    }

    /// What the draining thread does after running a batch.
    @usableFromInline
    enum DrainAction {
        /// Run these handlers, piped while the last batch ran, then ask again.
        case drainNext(Handlers<R>)
        /// Nothing: the box is sealed and drained.
        case stopDraining
    }

    /// The phase; the class reads and writes it only under its barrier.
    @usableFromInline var phase: Phase = .pending(Handlers())
    /// The value, an `R`, once the phase is not `pending` (see `RawStorage`).
    @usableFromInline var storage = RawStorage()

    /// A pending box's state. Always inlined: `PMKBox.init` is not specialized.
    @inlinable @inline(__always) init() {}

    /// Seals a box that no other thread can see yet (`Promise.value`, `Promise(error:)`): no handler ever waits.
    @inlinable mutating func settleAtCreation(_ value: R) {
        storage.store(value)
        phase = .sealed
    }

    /// The value, or nil while pending. `mutating` only to reach the value where it is stored; it writes nothing,
    /// so concurrent readers may call it.
    @inlinable var value: R? {
        mutating get {
            if case .pending = phase { return nil }
            return storage.load(as: R.self)
        }
    }

    /// The value, or nil and the number of handlers waiting, in one step (for `debugDescription`).
    mutating func inspect() -> (value: R?, waiting: Int) {
        switch phase {
        case .pending(let waiting): return (nil, waiting.count)
        case .draining(let waiting, _): return (storage.load(as: R.self), waiting.count)
        case .sealed: return (storage.load(as: R.self), 0)
        }
    }

    /// Piping `handler`. `thread` (the calling thread's token) is evaluated only while the box drains. Always inlined,
    /// as are `settle` and `afterBatch`: each is all the box does inside its barrier's write.
    @inlinable @inline(__always) mutating func register(
        _ handler: @escaping (R) -> Void, on thread: @autoclosure () -> Trampoline.Token
    ) -> RegisterAction {
        switch phase {
        case .pending:
            append(handler)
            return .wait
        case .draining(_, let drainer) where drainer == thread():
            return .runNowOnDrainer(storage.load(as: R.self))
        case .draining:
            append(handler)
            return .wait
        case .sealed:
            return .runNow(storage.load(as: R.self))
        }
    }

    /// Sealing with `value` on the thread `thread`; `deep` says that thread is at the trampoline's depth limit.
    @inlinable @inline(__always) mutating func settle(
        _ value: R, on thread: Trampoline.Token, deep: Bool
    ) -> SettleAction {
        switch phase {
        case .pending(let waiting) where waiting.isEmpty:
            phase = .sealed
            storage.store(value)
            return .settledWithoutWaiters
        case .pending(let waiting) where deep:
            phase = .draining(waiting, drainer: nil)
            storage.store(value)
            return .enqueueDrain
        case .pending(let waiting):
            phase = .draining(Handlers(), drainer: thread)
            storage.store(value)
            return .drain(waiting)
        case .draining, .sealed:
            return .alreadySettled
        }
    }

    /// The draining thread has run a batch. Draining stops after a batch during which none was piped.
    @inlinable @inline(__always) mutating func afterBatch() -> DrainAction {
        switch phase {
        case .draining(let waiting, _) where waiting.isEmpty:
            phase = .sealed
            return .stopDraining
        case .draining(let waiting, let drainer):
            phase = .draining(Handlers(), drainer: drainer)
            return .drainNext(waiting)
        case let found:
            preconditionFailure(
                "PromiseKitStyle: a batch ran while the box was not draining (the box is \(found.name))")
        }
    }

    /// The drain that `settle` enqueued starts on the thread `thread`: returns the handlers to run and the value.
    @inlinable mutating func resumeDrain(on thread: Trampoline.Token) -> (batch: Handlers<R>, value: R) {
        guard case .draining(let waiting, nil) = phase else {
            preconditionFailure("PromiseKitStyle: no drain was enqueued (the box is \(phase.name))")
        }
        phase = .draining(Handlers(), drainer: thread)
        return (waiting, storage.load(as: R.self))
    }

    /// For `deinit`, when no other reference exists: the handlers a box freed while pending still holds (the list is
    /// then empty), or nil after destroying the value of a sealed one. Always inlined: `deinit` is not specialized.
    @inlinable @inline(__always) mutating func takeForRelease() -> Handlers<R>? {
        guard case .pending(let waiting) = phase else {
            storage.destroy(as: R.self)
            return nil
        }
        phase = .pending(Handlers())
        return waiting
    }

    /// Appends `handler` to the list of a pending or draining box, in place: the list is moved out of the phase while
    /// it grows (`Phase.take()`), so its array is never copied.
    @inlinable mutating func append(_ handler: @escaping (R) -> Void) {
        switch phase.take() {
        case .pending(var waiting):
            waiting.append(handler)
            phase = .pending(waiting)
        case .draining(var waiting, let drainer):
            waiting.append(handler)
            phase = .draining(waiting, drainer: drainer)
        case let found:
            preconditionFailure("PromiseKitStyle: a sealed box keeps no handlers (the box is \(found.name))")
        }
    }
}

extension BoxStateMachine.Phase {
    /// Moves the phase out, leaving `.sealed` (unseen outside the barrier) until the transition stores the next one: a
    /// list taken out of it is then the only copy, so appending to it does not copy its array. Only the transitions
    /// that change a list take the phase; the others read it in place.
    @inlinable @inline(__always)
    mutating func take() -> Self {
        let taken = consume self
        self = .sealed
        return taken
    }
}
