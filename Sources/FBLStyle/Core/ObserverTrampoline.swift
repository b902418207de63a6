// ObserverTrampoline.swift: the per-thread trampoline that keeps chains of inline observers off the stack.
//
// Inline observers (no queue) only move a resolution from one promise to another, which can resolve a further promise
// whose own inline observer resolves the next one, and so on. Run naively, a chain of a million such hand-overs (for
// example a recursion in which every step returns the promise of the next step) would nest a million calls deep.
// Instead an inline observer runs at once only when no other runs on the thread (`inlineDepthLimit` is one); one
// started while another runs is enqueued, and the outermost run drains the enqueued ones in a loop, one after the
// other, in the order they were started.
//
// The same loop lets go of the observers of a pending promise that is deallocated (`release(_:)`): those observers hold
// the promises chained on it, whose observers hold the next ones, so letting go of them directly would recurse
// through their `deinit`s.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
#if DARWIN_STANDINS
    import DarwinStandIns  // Apple's declarations for the Darwin branches below (Package.swift, trait DarwinStandIns)
#endif

/// The thread-local key holding each thread's `ObserverTrampoline`.
private let trampolineKey: pthread_key_t = {
    var key = pthread_key_t()
    let status = pthread_key_create(&key) { pointer in
        #if canImport(Darwin) || DARWIN_STANDINS
            Unmanaged<ObserverTrampoline>.fromOpaque(pointer).release()
        #else
            if let pointer { Unmanaged<ObserverTrampoline>.fromOpaque(pointer).release() }
        #endif
    }
    precondition(status == 0, "FBLStyle: pthread_key_create failed (\(status))")
    return key
}()

/// The per-thread trampoline for inline observers and for letting go of deallocated chains.
@usableFromInline final class ObserverTrampoline {
    /// How many inline observers may run nested on one thread: one, so that those started while one runs wait for it
    /// and then run in the order they were started.
    static let inlineDepthLimit = 1
    /// How many inline observers (or drains of released values) are running on this thread now.
    private var depth = 0
    /// Inline observer runs kept for the outermost run on this thread, in order.
    private var enqueued: [() -> Void] = []
    /// Values kept alive until the drain lets go of them, one at a time (observers of deallocated pending promises).
    private var released: [Any] = []

    /// This thread's trampoline, created on first use.
    @usableFromInline static var current: ObserverTrampoline {
        if let pointer = pthread_getspecific(trampolineKey) {
            return Unmanaged<ObserverTrampoline>.fromOpaque(pointer).takeUnretainedValue()
        }
        let trampoline = ObserverTrampoline()
        pthread_setspecific(trampolineKey, Unmanaged.passRetained(trampoline).toOpaque())
        return trampoline
    }

    /// Runs `work` now if the thread is not too deep, otherwise enqueues it; the outermost run then drains.
    @usableFromInline func run(_ work: @escaping () -> Void) {
        guard depth < Self.inlineDepthLimit else { return enqueue(work) }
        depth += 1
        work()
        if depth == 1 { drain() }
        depth -= 1
    }

    /// Keeps `work` for the outermost run on this thread to run.
    func enqueue(_ work: @escaping () -> Void) {
        enqueued.append(work)
    }

    /// Keeps `value` (and whatever letting go of it lets go of in turn) alive until the drain lets go of it, so that a
    /// chain of `deinit`s does not recurse. The caller must hand over the last reference (pass a temporary, or a
    /// binding it consumes: `consume observers`), or nothing is let go of here.
    func release(_ value: consuming Any) {
        released.append(consume value)
        guard depth == 0 else { return }
        depth += 1
        drain()
        depth -= 1
    }

    /// Runs the enqueued work, in order, and lets go of the released values, until none is left of either.
    private func drain() {
        while true {
            if !enqueued.isEmpty {
                let batch = enqueued
                enqueued = []
                for work in batch {
                    work()
                }
            } else if let value = released.popLast() {
                // The last reference to `value` goes away at the end of this iteration; a `deinit` it triggers
                // appends to `released` instead of recursing.
                _ = value
            } else {
                return
            }
        }
    }
}
