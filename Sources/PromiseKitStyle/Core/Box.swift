// Box.swift: the core of PromiseKitStyle. Read this file first.
//
// THE MECHANISM: a handler list guarded by a barrier. Every `Promise` and `Guarantee` is a `PMKBox` (they inherit
// from it: one object per promise). Pending, the box keeps the handlers that `pipe` registered; sealed, it keeps the
// value forever (`R` is `Result<T>` for a promise, `T` for a guarantee). PromiseKit 8 guards the same state with a
// concurrent `DispatchQueue` per promise, reads in `sync`, writes in `sync(flags: .barrier)`. The box keeps those two
// calls and their meaning, but its `Barrier` is a lock of its own (Barrier.swift): creating a queue per promise is
// most of what a pending promise costs on Linux. The tests hold a `QueueBox` spelled with a real queue to compare.
//
// `pipe` is a write: it appends the handler, or, if the box is sealed, takes the value and runs the handler after
// leaving the barrier. `seal` is a write: it stores the value and swaps the handler list out in one step; the sealing
// thread then runs the handlers OUTSIDE the barrier, where a handler may pipe to this box, read it or seal another
// (inside, each would deadlock). Until that thread has run every handler it swapped out, the box is "draining": a
// handler another thread pipes meanwhile is appended as if the box were pending, and the sealing thread runs it next,
// so that it cannot overtake handlers piped before it (Promises/A+ 2.2.6; PromiseKit's `EmptyBox` has that race, see
// the FIXME in its `seal`). A handler the sealing thread itself pipes while it drains (a handler of this box that
// returns this box to `then`, say) runs at once, nested, as in PromiseKit, where nothing else could run it sooner.
//
// INVARIANTS.
// 1. `isSealed` goes from false to true once, in a write, together with `storage`; neither changes afterwards, so a
//    value read once is the value for good. Sealing again changes nothing and returns false (the public resolvers
//    report it, see `PMKDoubleResolution`).
// 2. `handlers` is non-empty only while pending or draining; once a sealed box has drained, nothing is appended again.
// 3. Every piped handler runs exactly once, with the sealed value, in the order piped (but for one the draining
//    thread pipes, which runs at once); a box deallocated while pending runs none and releases them (iteratively,
//    see `deinit`).
// 4. No handler and no user code runs inside the barrier: a write only moves the value and the handler list.
// 5. Inline handler runs nest at most `HandlerTrampoline.inlineDepthLimit` deep on one thread; deeper runs are
//    enqueued on the thread's trampoline and run in a loop (HandlerTrampoline.swift).
//
// For speed, the hot path is `@inlinable` (a client's release build sees only this module's interface), the fields
// touched under the barrier are `@exclusivity(unchecked)` (the barrier already makes access exclusive), and the
// sealed value is kept as raw words, `SealedStorage`, so that `deinit` needs no generic metadata.

/// The state every ``Promise`` and ``Guarantee`` inherits: pending with its handlers, or sealed with a value
/// (`R` is ``Result`` for a promise, `T` for a guarantee). All its members are internal; it is public only
/// because the public promise types inherit from it, which saves one allocation per promise.
public class PMKBox<R>: @unchecked Sendable {
    @usableFromInline final let barrier = Barrier()
    /// Whether the box is sealed; the value is then in `storage`. Written once, under the barrier.
    @usableFromInline @exclusivity(unchecked) final var isSealed = false
    /// The sealed value, an `R` (see `SealedStorage`).
    @usableFromInline @exclusivity(unchecked) final var storage = SealedStorage()
    /// The handlers waiting for the value: only while pending or draining.
    @usableFromInline @exclusivity(unchecked) final var handlers = Handlers<R>()
    /// Whether the sealing thread is still running handlers; handlers piped meanwhile join `handlers`.
    @usableFromInline @exclusivity(unchecked) final var draining = false
    /// The trampoline of the thread running the swapped-out handlers while draining; nil while that run is enqueued.
    @usableFromInline @exclusivity(unchecked) final var drainer: UnsafeMutableRawPointer?
    @usableFromInline final let report: PendingReport

    /// A pending box.
    @usableFromInline init(report: PendingReport = .none) { self.report = report }

    /// A box sealed from the start (`Promise.value`, `Promise(error:)`): no handler is ever stored.
    @usableFromInline init(sealed value: R) {
        report = .none
        storage.store(value)
        isSealed = true
    }

    /// The sealed value, or nil while pending. Read it under the barrier.
    @inlinable final var sealed: R? {
        guard isSealed else { return nil }
        return storage.load(as: R.self)
    }

    /// The sealed value, or nil while pending. A read.
    @inlinable final var sealedValue: R? { barrier.sync { sealed } }

    /// The sealed value, or nil and the number of handlers waiting, read in one step (for `debugDescription`).
    final func inspect() -> (sealed: R?, waiting: Int) {
        barrier.sync { (sealed, handlers.count) }
    }

    /// Registers `handler`; if the box is already sealed (and done draining, or draining on this thread), runs it now,
    /// outside the barrier.
    @inlinable final func pipe(_ handler: @escaping (R) -> Void) {
        let ready: R? = barrier.sync(flags: .barrier) {
            if let sealed, !draining || drainer == UnsafeMutableRawPointer(HandlerTrampoline.current.state) {
                return sealed
            }
            handlers.append(handler)
            return nil
        }
        if let ready { HandlerTrampoline.current.run(Handlers(handler), with: ready) }
    }

    /// Seals the box with `value` and runs the handlers outside the barrier, then any piped while they ran.
    /// Returns false, changing nothing, if the box was already sealed.
    /// A box sealed on a thread at the trampoline's depth limit enqueues the running of its handlers there instead
    /// (a closure capturing only the box: nothing is allocated); they then run from there, in order.
    @inlinable @discardableResult
    final func seal(_ value: R) -> Bool {
        let trampoline = HandlerTrampoline.current
        let deep = trampoline.isAtDepthLimit
        var enqueue = false
        let taken: Handlers<R>? = barrier.sync(flags: .barrier) {
            guard !isSealed else { return nil }
            storage.store(value)
            isSealed = true
            draining = !handlers.isEmpty
            enqueue = draining && deep
            drainer = enqueue ? nil : UnsafeMutableRawPointer(trampoline.state)
            return enqueue ? Handlers() : handlers.take()
        }
        guard let batch = taken else { return false }
        if enqueue {
            trampoline.enqueue { self.drainEnqueued() }
        } else {
            drain(batch, with: value, on: trampoline)
        }
        return true
    }

    /// Runs `batch`, then the handlers piped while it ran, until none is left (and the box stops draining).
    @inlinable final func drain(_ batch: Handlers<R>, with value: R, on trampoline: HandlerTrampoline) {
        var batch = batch
        while !batch.isEmpty {
            trampoline.run(batch, with: value)
            batch = barrier.sync(flags: .barrier) {
                draining = !handlers.isEmpty
                return handlers.take()
            }
        }
    }

    /// Runs the handlers of a box whose sealing enqueued them on the trampoline.
    @usableFromInline final func drainEnqueued() {
        let trampoline = HandlerTrampoline.current
        let (value, batch) = barrier.sync(flags: .barrier) {
            drainer = UnsafeMutableRawPointer(trampoline.state)
            return (sealed!, handlers.take())
        }
        drain(batch, with: value, on: trampoline)
    }

    deinit {
        // No other reference exists, so no barrier is needed.
        if isSealed {
            storage.destroy(as: R.self)
            return
        }
        switch report {
        case .none: break
        case .promise: conf.logHandler(.pendingPromiseDeallocated)
        case .guarantee: conf.logHandler(.pendingGuaranteeDeallocated)
        }
        // The handlers hold the next promises of the chain; releasing them here would recurse once per link.
        if !handlers.isEmpty { HandlerTrampoline.current.release(handlers.take()) }
    }
}

/// Which `LogEvent` a box reports if it is deallocated while still pending.
@usableFromInline
enum PendingReport: UInt8 {
    case none, promise, guarantee
}
