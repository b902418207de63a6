// HandlerTrampoline.swift: PromiseKitStyle's trampoline, the shared `Trampoline` (PromisePlumbing) with its limit, and
// the one way a box runs handlers through it.
//
// Inline handlers (`on: nil`) run on the thread that seals a box, and each may seal the next box. Up to
// `inlineDepthLimit` such runs nest normally (so a short `on: nil` chain still completes before `seal` returns, as in
// PromiseKit); `run(_:with:)` enqueues deeper runs, and the outermost run on the thread drains them in a loop. A box
// sealed that deep enqueues the running of its handlers itself (`.enqueueDrain`, BoxStateMachine.swift). The teardown
// of a pending chain is flattened the same way: a box deallocated with handlers hands them to `release(_:)`, and only
// the outermost release on the thread lets them go, one at a time.
//
// The price of enqueueing: a handler more than `inlineDepthLimit` inline runs deep that blocks its thread (say with
// `wait()`) on a promise whose inline chain was enqueued on that same thread waits forever. Blocking inside an inline
// handler is a deadlock risk in PromiseKit too; hop to a queue (`on:`) before blocking.

import PromisePlumbing

/// PromiseKitStyle's trampolines: the limit, and the calling thread's trampoline.
@usableFromInline
enum HandlerTrampoline {
    /// How many inline handler runs may nest on one thread before further runs are enqueued.
    @usableFromInline static let inlineDepthLimit = 16

    /// PromiseKitStyle's slot: each thread's state, kept apart from the other styles'.
    @usableFromInline static let slot = TrampolineSlot(style: "PromiseKitStyle")

    /// The calling thread's trampoline, created on first use.
    @inlinable static var current: Trampoline { slot.current }
}

extension Trampoline {
    /// Runs `handlers` with `value` now, or enqueues the run if the thread is at the depth limit. The outermost run
    /// then drains what the runs inside it enqueued. Always inlined: `PMKBox.drain` calls it twice, for the first
    /// batch and for the next ones, and the optimizer would otherwise call it out of line.
    @inlinable @inline(__always)
    func run<R>(_ handlers: Handlers<R>, with value: R) {
        guard !isAt(limit: HandlerTrampoline.inlineDepthLimit) else {
            enqueue { handlers.run(value) }
            return
        }
        run { handlers.run(value) }
    }
}
