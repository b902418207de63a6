// Per-thread bookkeeping that keeps long chains off the stack.
//
// - `depth` counts how many continuations are running inline, nested, on this thread.
//   `BFExecutor.default` runs inline while `depth < defaultDepthLimit` (Bolts' stack guard) and
//   otherwise hops to a global queue. `BFExecutor.immediate` runs inline while
//   `depth < immediateDepthLimit` and otherwise parks the work on this thread's `trampoline`; a
//   task completed at that depth parks the running of its callbacks there too (`trySetState`).
// - The outermost inline frame (depth 0 -> 1) drains the trampoline before it returns, so a chain
//   of a million `.immediate` continuations runs as a loop instead of a million nested calls.
// - `release(_:)` frees the callbacks of dropped pending tasks one at a time (a dropped pending
//   chain would otherwise be freed by a million nested `deinit`s).
//
// The state lives in memory owned by a pthread key (freed when the thread exits) and is reached
// through a pointer: no object, no reference counting, on the hot path.

import Foundation

#if DARWIN_STANDINS
    import DarwinStandIns  // Apple's declarations for the Darwin branch below (Package.swift, trait DarwinStandIns)
#endif

/// One closure parked on the trampoline. A struct, because an array of bare closures stores them
/// "maximally abstracted": appending a closure would allocate a reabstraction thunk around it.
@usableFromInline
struct BFParkedWork {
    @usableFromInline let run: () -> Void

    @inlinable
    init(run: @escaping () -> Void) {
        self.run = run
    }
}

/// Per-thread state for inline execution: nesting depth, the trampoline and the deferred releases.
@usableFromInline
struct BFThreadLocal {
    /// How deep `.default` may nest inline before it hops to a global queue (as in Bolts).
    @usableFromInline static let defaultDepthLimit = 20
    /// How deep `.immediate` may nest inline before it defers work to the trampoline.
    @usableFromInline static let immediateDepthLimit = 64

    /// Inline continuations currently running, nested, on this thread.
    @usableFromInline var depth = 0
    /// Work deferred by `.immediate` at the depth limit; drained by the outermost inline frame.
    @usableFromInline var trampoline: [BFParkedWork] = []
    /// An empty array whose storage the next drain reuses, so parking allocates nothing in the long run.
    var spare: [BFParkedWork] = []
    /// Values whose release was deferred while another release was in progress.
    var releases: [Any] = []
    var releasing = false

    @usableFromInline static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { pointer in
            #if canImport(Darwin) || DARWIN_STANDINS
                let local = pointer.assumingMemoryBound(to: BFThreadLocal.self)
            #else
                guard let local = pointer?.assumingMemoryBound(to: BFThreadLocal.self) else { return }
            #endif
            local.deinitialize(count: 1)
            local.deallocate()
        }
        precondition(status == 0, "BoltsStyle: pthread_key_create failed (\(status))")
        return key
    }()

    /// This thread's state, created on first use and freed when the thread exits.
    @inlinable
    static var current: UnsafeMutablePointer<BFThreadLocal> {
        if let raw = pthread_getspecific(key) {
            return raw.assumingMemoryBound(to: BFThreadLocal.self)
        }
        return makeCurrent()
    }

    @usableFromInline
    static func makeCurrent() -> UnsafeMutablePointer<BFThreadLocal> {
        let local = UnsafeMutablePointer<BFThreadLocal>.allocate(capacity: 1)
        local.initialize(to: BFThreadLocal())
        pthread_setspecific(key, local)
        return local
    }

    /// Runs `body` one level deeper on this thread; the outermost level then drains the trampoline.
    @inlinable
    static func runInline(_ local: UnsafeMutablePointer<BFThreadLocal>, _ body: () -> Void) {
        let outermost = local.pointee.depth == 0
        local.pointee.depth += 1
        body()
        if outermost && !local.pointee.trampoline.isEmpty {
            drainTrampoline(local)
        }
        local.pointee.depth -= 1
    }

    /// Parks `work` until the outermost inline frame on this thread returns.
    @usableFromInline
    static func park(_ local: UnsafeMutablePointer<BFThreadLocal>, _ work: @escaping () -> Void) {
        local.pointee.trampoline.append(BFParkedWork(run: work))
    }

    /// Runs parked work, and the work it parks in turn, until none is left.
    @usableFromInline
    static func drainTrampoline(_ local: UnsafeMutablePointer<BFThreadLocal>) {
        // Two arrays take turns: the batch being run and the trampoline collecting what it parks.
        // Both keep their storage (up to a bound), so a long chain does not allocate per batch.
        var batch: [BFParkedWork] = []
        swap(&batch, &local.pointee.spare)
        while !local.pointee.trampoline.isEmpty {
            swap(&batch, &local.pointee.trampoline)
            for index in batch.indices { batch[index].run() }
            batch.removeAll(keepingCapacity: batch.capacity <= 1024)
        }
        local.pointee.spare = batch
    }

    /// Called before a thread blocks in `waitUntilCompleted`: work parked on this thread might be
    /// what completes the awaited task, so run it now instead of deadlocking.
    static func drainBeforeBlocking() {
        let local = current
        guard !local.pointee.trampoline.isEmpty else { return }
        let saved = local.pointee.depth
        local.pointee.depth = 1
        drainTrampoline(local)
        local.pointee.depth = saved
    }

    /// Drops `value`. Releases that dropping it triggers on this thread (the next task of a dropped
    /// chain, and so on) are queued and done one after another, so the stack does not grow.
    static func release(_ value: consuming Any) {
        let local = current
        if local.pointee.releasing {
            local.pointee.releases.append(value)
            return
        }
        local.pointee.releasing = true
        do { _ = consume value }
        while let next = local.pointee.releases.popLast() {
            _ = consume next
        }
        local.pointee.releasing = false
    }
}
