// BoxStateMachine.swift: the whole mutable state of a box (every `Promise` and `Guarantee`) and every rule that
// changes it. No lock, no thread, no handler run here: `PMKBox` calls each transition inside its barrier's write and
// performs the action the transition returns after leaving the barrier (Box.swift).
//
// Names: settle = PromiseKit's `seal`; the list = `Handlers`; the lock = `Barrier`, in place of PromiseKit's
// concurrent `DispatchQueue` per promise; the trampoline = `HandlerTrampoline`; the phase = PromiseKit's `Sealant`
// (`pending(Handlers)`, `resolved(R)`) with one phase more, `draining`.
//
// PHASES
//   pending(list)            Not sealed. `list` holds the handlers piped so far.
//   draining(list, drainer)  Sealed; the sealing thread, `drainer`, is still running the handlers it took (nil while
//                            that run waits, enqueued, on its trampoline). `list` collects the handlers other threads
//                            pipe meanwhile; the drainer runs them next, so none overtakes one piped before it
//                            (Promises/A+ 2.2.6; PromiseKit runs them at once, the race the FIXME in its
//                            `EmptyBox.seal` names).
//   sealed                   Sealed and drained: nothing waits any more.
// The value is in `storage` from the moment the box leaves `pending`: raw words (`RawStorage`, PromisePlumbing), and payloads of
// closures and a token only, so that the unspecialized `PMKBox.deinit` never looks up generic metadata.
//
// TRANSITIONS (each returns what the box does next, outside the barrier)
//   register(handler, on:)    pending, or draining on another thread: `.wait` (appended). Sealed: `.runNow(value)`.
//                             Draining on this very thread (a handler of this box piped it): `.runNowOnDrainer(value)`,
//                             at once, nested, ahead of the handlers waiting, as in PromiseKit: if handler A pipes C
//                             while B waits, the order is A, C, B (unless the thread is at the trampoline's depth
//                             limit: the box runs C through the trampoline, which then enqueues it, after B).
//   settle(value, on:, deep:) pending: stores the value, then `.settledWithoutWaiters` (sealed), `.drain(list)`
//                             (draining on this thread) or, at the trampoline's depth limit, `.enqueueDrain` (draining,
//                             no drainer yet). Any other phase: `.alreadySettled`, changing nothing.
//   afterBatch()              This style's rule: draining stops AFTER a batch (PromiseKit's `seal` runs its one batch
//                             and stops; Bolts stops before its last callback). `.drainNext(list)` if handlers were
//                             piped while the batch ran, else `.stopDraining` (sealed).
//   resumeDrain(on:)          the enqueued drain starts on this thread, which becomes the drainer and takes the list.
//   takeForRelease()          for `deinit`: the handlers of a box dropped while pending, or nil (the value destroyed).
//
// INVARIANTS
// 1. The value is stored once, when the box leaves `pending`, and never changes; no phase returns to `pending`.
// 2. Handlers are kept only in `pending` and `draining`.
// 3. Every handler piped runs once, with the value: in the order piped, but for `.runNowOnDrainer`. A box freed while
//    pending runs none; its `deinit` releases them through the trampoline, one at a time.
// 4. A transition moves the value and the list, never runs user code: the box runs handlers outside the barrier.

/// A box's phase and sealed value, and the transitions between phases (see the file's header).
import PromisePlumbing

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

    /// Appends `handler` to the list of a pending or draining box, in place: the phase lets go of the list while it
    /// grows (holding `.sealed` for that instant, unseen outside the barrier), so its array is never copied.
    @inlinable mutating func append(_ handler: @escaping (R) -> Void) {
        switch phase {
        case .pending(var waiting):
            phase = .sealed
            waiting.append(handler)
            phase = .pending(waiting)
        case .draining(var waiting, let drainer):
            phase = .sealed
            waiting.append(handler)
            phase = .draining(waiting, drainer: drainer)
        case let found:
            preconditionFailure("PromiseKitStyle: a sealed box keeps no handlers (the box is \(found.name))")
        }
    }
}
