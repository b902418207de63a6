// BFTrampoline.swift: BoltsStyle's trampoline, the shared `Trampoline` (PromisePlumbing) with Bolts' two limits.
//
// Executors run continuations inline on the completing thread, and each may complete the next task, one call deeper.
// The trampoline counts that nesting, and apart the nesting of `.default`'s own runs (its marked runs).
// `BFExecutor.default` runs inline while fewer than `defaultDepthLimit` of its runs are nested on the thread
// (Bolts-Swift's own stack guard, which counts only those) and otherwise hops to a global queue;
// `BFExecutor.immediate` and `.mainThread` (on the main thread) run inline while the thread is less than
// `immediateDepthLimit` deep. Past that limit `.immediate` enqueues the work instead, and a task completed that deep
// enqueues the running of its callbacks (the state machine's `.enqueueDrain`, then `resumeDrain`). The outermost
// inline run on the thread drains what was enqueued before it returns, so a chain of a million `.immediate`
// continuations runs as a loop instead of a million nested calls. A dropped pending chain is released one task at a
// time through the same trampoline.

import PromisePlumbing

/// BoltsStyle's trampolines: the limits, and the calling thread's trampoline.
@usableFromInline
enum BFTrampoline {
    /// How many `.default` runs may nest on a thread: the next one hops to a global queue. Bolts-Swift's executor
    /// hops once more than 20 are nested, so the 21st still runs inline; it counts `.default` runs only.
    @usableFromInline static let defaultDepthLimit = 21
    /// How deep `.immediate` may run inline before it enqueues work on the trampoline.
    @usableFromInline static let immediateDepthLimit = 64

    /// BoltsStyle's slot: each thread's state, kept apart from the other styles'.
    @usableFromInline static let slot = TrampolineSlot(style: "BoltsStyle")

    /// The calling thread's trampoline, created on first use.
    @inlinable static var current: Trampoline { slot.current }
}

/// An inline run an executor allows now (`BFExecutor.inlineTrampoline()`): on the thread's trampoline, and counted as
/// one of `.default`'s own runs when the executor is `.default`.
@usableFromInline
struct BFInlineRun {
    /// The calling thread's trampoline.
    @usableFromInline let trampoline: Trampoline
    /// Whether the run is one of `.default`'s, counted against `BFTrampoline.defaultDepthLimit` too.
    @usableFromInline let isDefault: Bool

    /// A run on `trampoline`, one of `.default`'s if `isDefault`.
    @inlinable init(_ trampoline: Trampoline, isDefault: Bool = false) {
        self.trampoline = trampoline
        self.isDefault = isDefault
    }

    /// Runs `work` now, one inline run deeper on the thread.
    @inlinable func run(_ work: () -> Void) {
        if isDefault { trampoline.runMarked(work) } else { trampoline.run(work) }
    }
}
