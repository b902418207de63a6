// The lock inside every task: one atomic word stored inline in the object.
//
// Why not `Synchronization.Mutex`? On Linux it is built on priority-inheritance futexes: when the
// lock is contended the kernel hands it to the next thread without any atomic operation in user
// space, so the thread sanitizer cannot see the hand-over and reports races that are not there.
// The critical sections here are a few stores and never run user code, so a compare-and-swap lock
// that yields the processor while contended is both simple and fast, and every hand-over is an
// atomic release/acquire pair that the sanitizer understands.

import Synchronization

#if canImport(Darwin)
    import Darwin
#else
    import Glibc
#endif

/// A minimal lock: compare-and-swap to acquire, a releasing store to release, yield while contended.
@usableFromInline
struct BFLock: ~Copyable {
    @usableFromInline let locked = Atomic<Bool>(false)

    @inlinable
    init() {}

    /// Runs `body` while holding the lock. `body` must be short and must not run user code.
    @inlinable
    func withLock<R>(_ body: () throws -> R) rethrows -> R {
        if !locked.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {
            lockContended()
        }
        defer { locked.store(false, ordering: .releasing) }
        return try body()
    }

    @usableFromInline
    func lockContended() {
        var attempts = 0
        while true {
            if !locked.load(ordering: .relaxed),
                locked.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged
            {
                return
            }
            attempts += 1
            if attempts >= 64 { sched_yield() }
        }
    }
}
