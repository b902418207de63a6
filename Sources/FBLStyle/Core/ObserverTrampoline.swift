// ObserverTrampoline.swift: FBLStyle's trampoline, the shared `Trampoline` (PromisePlumbing) with a depth limit of one.
//
// Inline observers (no queue) only move a resolution from one promise to another, which can resolve a further promise
// whose own inline observer resolves the next one, and so on. Run naively, a chain of a million such hand-overs (for
// example a recursion in which every step returns the promise of the next step) would nest a million calls deep.
// Instead an inline observer runs at once only when no other runs on the thread (`inlineDepthLimit` is one); one
// started while another runs is enqueued, and the outermost run drains the enqueued ones in a loop, one after the
// other, in the order they were started.
//
// The same trampoline lets go of the observers of a pending promise that is deallocated (`release(_:)`): those
// observers hold the promises chained on it, whose observers hold the next ones, so letting go of them directly would
// recurse through their `deinit`s.

import PromisePlumbing

/// FBLStyle's trampolines: the limit, and the calling thread's trampoline.
@usableFromInline
enum ObserverTrampoline {
    /// How many inline observers may run nested on one thread: one, so that those started while one runs wait for it
    /// and then run in the order they were started.
    @usableFromInline static let inlineDepthLimit = 1

    /// FBLStyle's slot: each thread's state, kept apart from the other styles'.
    @usableFromInline static let slot = TrampolineSlot(style: "FBLStyle")

    /// The calling thread's trampoline, created on first use.
    @inlinable static var current: Trampoline { slot.current }

    /// Runs an inline observer's `work` now if no other runs on this thread, and otherwise keeps it for the one that
    /// runs. Out of line: the observers' hot paths (`notify`, `notifyFirst`) stay small enough to be inlined where
    /// they are called.
    @usableFromInline static func run(_ work: @escaping () -> Void) {
        current.runOrEnqueue(below: inlineDepthLimit, work)
    }
}
