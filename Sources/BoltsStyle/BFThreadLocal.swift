// Per-thread bookkeeping that keeps long chains off the stack.
//
// - `depth` counts how many continuations are running inline, nested, on this thread.
//   `BFExecutor.default` runs inline while `depth < defaultDepthLimit` (Bolts' stack guard) and
//   otherwise hops to a global queue. `BFExecutor.immediate` runs inline while
//   `depth < immediateDepthLimit` and otherwise parks the work on this thread's `trampoline`.
// - The outermost inline frame (depth 0 -> 1) drains the trampoline when it returns, so a chain
//   of a million `.immediate` continuations runs as a loop instead of a million nested calls.
// - `release(_:)` frees the callbacks of dropped pending tasks one at a time (a dropped pending
//   chain would otherwise be freed by a million nested `deinit`s).

import Foundation

/// Per-thread state for inline execution: nesting depth, the trampoline and the deferred releases.
final class BFThreadLocal {
    /// How deep `.default` may nest inline before it hops to a global queue (as in Bolts).
    static let defaultDepthLimit = 20
    /// How deep `.immediate` may nest inline before it defers work to the trampoline.
    static let immediateDepthLimit = 64

    /// Inline continuations currently running, nested, on this thread.
    var depth = 0
    /// Work deferred by `.immediate` at the depth limit; drained by the outermost inline frame.
    private var trampoline: [() -> Void] = []
    /// Values whose release was deferred while another release was in progress.
    private var releases: [Any] = []
    private var releasing = false

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { pointer in
            #if canImport(Darwin)
                Unmanaged<BFThreadLocal>.fromOpaque(pointer).release()
            #else
                if let pointer { Unmanaged<BFThreadLocal>.fromOpaque(pointer).release() }
            #endif
        }
        precondition(status == 0, "BoltsStyle: pthread_key_create failed (\(status))")
        return key
    }()

    /// This thread's state, created on first use and freed when the thread exits.
    static var current: BFThreadLocal {
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<BFThreadLocal>.fromOpaque(pointer).takeUnretainedValue()
        }
        let local = BFThreadLocal()
        pthread_setspecific(key, Unmanaged.passRetained(local).toOpaque())
        return local
    }

    /// Runs `body` one level deeper; the outermost level then drains the trampoline.
    @inline(__always)
    func runInline(_ body: () -> Void) {
        if depth == 0 {
            depth = 1
            body()
            drainTrampoline()
            depth = 0
        } else {
            depth += 1
            body()
            depth -= 1
        }
    }

    /// Parks `work` until the outermost inline frame on this thread returns.
    func park(_ work: @escaping () -> Void) {
        trampoline.append(work)
    }

    /// Runs parked work, and the work it parks in turn, until none is left.
    private func drainTrampoline() {
        while !trampoline.isEmpty {
            let batch = trampoline
            trampoline = []
            for work in batch { work() }
        }
    }

    /// Called before a thread blocks in `waitUntilCompleted`: work parked on this thread might be
    /// what completes the awaited task, so run it now instead of deadlocking.
    func drainBeforeBlocking() {
        guard !trampoline.isEmpty else { return }
        let saved = depth
        depth = 1
        drainTrampoline()
        depth = saved
    }

    /// Drops `value`. Releases that dropping it triggers on this thread (the next task of a dropped
    /// chain, and so on) are queued and done one after another, so the stack does not grow.
    func release(_ value: consuming Any) {
        if releasing {
            releases.append(value)
            return
        }
        releasing = true
        do { _ = consume value }
        while let next = releases.popLast() {
            _ = next
        }
        releasing = false
    }
}
