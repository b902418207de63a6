// A per-thread drain loop for library-internal observers, so that long chains never nest on the stack.
//
// Inline observers only move a resolution from one promise to another, which can resolve a further promise whose own
// inline observer resolves the next one, and so on. Run naively, a chain of a million such hand-overs (for example a
// recursion in which every step returns the promise of the next step) would nest a million calls deep. Instead the
// first inline observer on a thread runs at once and marks the thread as draining; inline observers triggered while it
// runs are queued and run by the same loop, one after the other, when the current one returns.
//
// The same loop releases the observers of a pending promise that is deallocated: those observers hold the promises
// chained on it, whose observers hold the next ones, so releasing them directly would recurse through `deinit`s.

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

/// The thread-local key holding each thread's `InlineDrain`.
private let drainKey: pthread_key_t = {
    var key = pthread_key_t()
    let status = pthread_key_create(&key) { pointer in
        #if canImport(Darwin) || DARWIN_STANDINS
            Unmanaged<InlineDrain>.fromOpaque(pointer).release()
        #else
            if let pointer { Unmanaged<InlineDrain>.fromOpaque(pointer).release() }
        #endif
    }
    precondition(status == 0, "FBLStyle: pthread_key_create failed (\(status))")
    return key
}()

/// The per-thread trampoline for inline observers and for releasing deallocated chains.
@usableFromInline final class InlineDrain {
    /// Whether this thread is inside `drain()`.
    private var isDraining = false
    /// Inline observer calls queued while draining.
    private var queued: [() -> Void] = []
    /// Things to release one at a time (observers of deallocated pending promises).
    private var released: [Any] = []

    /// This thread's drain, created on first use.
    @usableFromInline static var current: InlineDrain {
        if let pointer = pthread_getspecific(drainKey) {
            return Unmanaged<InlineDrain>.fromOpaque(pointer).takeUnretainedValue()
        }
        let drain = InlineDrain()
        pthread_setspecific(drainKey, Unmanaged.passRetained(drain).toOpaque())
        return drain
    }

    /// Runs `work` now, or after the work already running on this thread when called from inside it.
    @usableFromInline func run(_ work: @escaping () -> Void) {
        if isDraining {
            queued.append(work)
            return
        }
        isDraining = true
        work()
        drain()
        isDraining = false
    }

    /// Releases `thing` (and whatever its release releases in turn) iteratively. The caller must hand over the last
    /// reference (pass a temporary, for example `field.take() as Any`), or nothing is released here.
    func release(_ thing: consuming Any) {
        released.append(consume thing)
        if isDraining { return }
        isDraining = true
        drain()
        isDraining = false
    }

    /// Runs queued work and releases pending objects until both lists stay empty.
    private func drain() {
        while true {
            if !queued.isEmpty {
                let batch = queued
                queued = []
                for work in batch {
                    work()
                }
            } else if let thing = released.popLast() {
                // The last reference to `thing` goes away at the end of this iteration; any `deinit` it triggers
                // appends to `released` instead of recursing.
                _ = thing
            } else {
                return
            }
        }
    }
}
