// Box.swift: the core of PromiseKitStyle, the class that every `Promise` and `Guarantee` is. Read this file first.
//
// PromiseKit's mechanism: a list of handlers guarded by a barrier, reads in `barrier.sync`, writes in
// `barrier.sync(flags: .barrier)`. PromiseKit's barrier is a concurrent `DispatchQueue` per promise; `Barrier` keeps
// its two calls and their meaning without the queue (Barrier.swift). The box's whole state is `machine`, its phase
// and its value (BoxStateMachine.swift: the phases, the transitions, the one rule by which a handler skips its turn).
// Each method below takes the barrier, calls one transition, and performs the action it returns after leaving the
// barrier: no handler runs inside, where one that pipes to this box or seals another would deadlock. Handlers run
// through the thread's `HandlerTrampoline`, which keeps long inline chains off the stack.
//
// For speed, the hot path is `@inlinable` (a client's release build sees only this module's interface), `machine` is
// `@exclusivity(unchecked)` (the barrier already makes access exclusive), and each write hands the barrier a local
// function marked `@inline(__always)` rather than a closure literal, which the optimizer leaves out of line.

import PromisePlumbing

/// The state every ``Promise`` and ``Guarantee`` inherits: pending with its handlers, or sealed with a value
/// (`R` is ``Result`` for a promise, `T` for a guarantee). All its members are internal; it is public only
/// because the public promise types inherit from it, which saves one allocation per promise.
public class PMKBox<R> {
    /// Guards `machine`: reads in `sync`, writes in `sync(flags: .barrier)`.
    @usableFromInline final let barrier = Barrier()
    /// The phase and the value; touched only under `barrier`, or in `deinit`.
    @usableFromInline @exclusivity(unchecked) final var machine = BoxStateMachine<R>()
    /// What to log if the box is freed while pending.
    @usableFromInline final let report: PendingReport

    /// The type of `machine`, to name its actions.
    @usableFromInline typealias Machine = BoxStateMachine<R>

    /// A pending box.
    @usableFromInline init(report: PendingReport = .none) { self.report = report }

    /// A box sealed from the start (`Promise.value`, `Promise(error:)`): no handler is ever stored.
    @usableFromInline init(sealed value: R) {
        report = .none
        machine.settleAtCreation(value)
    }

    /// The sealed value, or nil while pending. A read.
    @inlinable final var sealedValue: R? { barrier.sync { machine.value } }

    /// The sealed value, or nil and the number of handlers waiting, read in one step (for `debugDescription`).
    final func inspect() -> (value: R?, waiting: Int) {
        barrier.sync { machine.inspect() }
    }

    /// Registers `handler`, or runs it now, outside the barrier, if the box is sealed (and drained, or draining on
    /// this very thread).
    @inlinable final func pipe(_ handler: @escaping (R) -> Void) {
        @inline(__always) func register() -> Machine.RegisterAction {
            machine.register(handler, on: HandlerTrampoline.current.token)
        }
        switch barrier.sync(flags: .barrier, register) {
        case .wait: return
        case .runNow(let value), .runNowOnDrainer(let value):
            HandlerTrampoline.current.run(Handlers(handler), with: value)
        }
    }

    /// Seals the box with `value` and runs the handlers outside the barrier, then any piped while they ran.
    /// Returns false, changing nothing, if the box was already sealed.
    @inlinable @discardableResult
    final func seal(_ value: R) -> Bool {
        let trampoline = HandlerTrampoline.current
        let deep = trampoline.isAt(limit: HandlerTrampoline.inlineDepthLimit)
        @inline(__always) func settle() -> Machine.SettleAction {
            machine.settle(value, on: trampoline.token, deep: deep)
        }
        switch barrier.sync(flags: .barrier, settle) {
        case .alreadySettled: return false
        case .settledWithoutWaiters: break
        case .drain(let batch): drain(batch, with: value, on: trampoline)
        case .enqueueDrain: trampoline.enqueue { self.resumeDrain() }  // captures only the box: allocates nothing
        }
        return true
    }

    /// Runs `batch`, then the handlers piped while it ran, until a batch ran with none piped.
    @inlinable final func drain(_ batch: Handlers<R>, with value: R, on trampoline: Trampoline) {
        @inline(__always) func afterBatch() -> Machine.DrainAction { machine.afterBatch() }
        trampoline.run(batch, with: value)
        while case .drainNext(let next) = barrier.sync(flags: .barrier, afterBatch) {
            trampoline.run(next, with: value)
        }
    }

    /// Runs the handlers of a box whose sealing enqueued them on this thread's trampoline.
    @usableFromInline final func resumeDrain() {
        let trampoline = HandlerTrampoline.current
        @inline(__always) func resumeDrain() -> (batch: Handlers<R>, value: R) {
            machine.resumeDrain(on: trampoline.token)
        }
        let (batch, value) = barrier.sync(flags: .barrier, resumeDrain)
        drain(batch, with: value, on: trampoline)
    }

    deinit {
        // No other reference exists, so no barrier is needed.
        guard var waiting = machine.takeForRelease() else { return }
        switch report {
        case .none: break
        case .promise: conf.logHandler(.pendingPromiseDeallocated)
        case .guarantee: conf.logHandler(.pendingGuaranteeDeallocated)
        }
        // The handlers hold the next promises of the chain; releasing them here would recurse once per link. `take`
        // leaves this frame no reference to them, so they go in the outermost release's loop.
        if !waiting.isEmpty { HandlerTrampoline.current.release(waiting.take()) }
    }
}

/// Which `LogEvent` a box reports if it is deallocated while still pending.
@usableFromInline
enum PendingReport: UInt8 {
    case none, promise, guarantee
}

// The barrier makes a box's state safe to share; what a shared box also shares is its value. So the box, and with it
// `Promise`, `Guarantee` and `PMKFinalizer`, which inherit the conformance, is `Sendable` whatever the value under
// PromiseKit's rules (the default), and only where the value is under the trait CheckedHandlers.
#if CheckedHandlers
    extension PMKBox: @unchecked Sendable where R: Sendable {}
#else
    extension PMKBox: @unchecked Sendable {}
#endif
