// The lock of every promise: one atomic word stored inline, an os_unfair_lock-like primitive of our own.
//
// `Synchronization.Mutex` would do, but its lock lives in the (uninstrumented) standard library, so the thread
// sanitizer cannot see it synchronize and reports every guarded access as a race. This lock is made of atomic
// operations compiled into this module: acquire on lock, release on unlock, which the sanitizer understands. Critical
// sections are a few loads and stores, so a contended lock spins briefly and then yields its thread.

import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A minimal lock over one atomic word, stored inline in its owner (no allocation).
@usableFromInline struct PromiseLock: ~Copyable, Sendable {
    @usableFromInline let isLocked = Atomic<Bool>(false)

    @inlinable init() {}

    /// Runs `body` with the lock held.
    @inlinable func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }

    @inlinable func lock() {
        let acquired = isLocked.compareExchange(
            expected: false, desired: true, successOrdering: .acquiring, failureOrdering: .relaxed
        ).exchanged
        if !acquired { lockContended() }
    }

    @usableFromInline func lockContended() {
        var attempts = 0
        while true {
            if !isLocked.load(ordering: .relaxed),
                isLocked.compareExchange(
                    expected: false, desired: true, successOrdering: .acquiring, failureOrdering: .relaxed
                ).exchanged
            {
                return
            }
            attempts += 1
            if attempts > 64 { sched_yield() }
        }
    }

    @inlinable func unlock() {
        isLocked.store(false, ordering: .releasing)
    }
}
