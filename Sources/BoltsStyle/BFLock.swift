// The lock inside every task, one per platform family behind the same two calls (`init()` and `withLock`).
//
// Apple platforms: `os_unfair_lock`. A thread that waits for it tells the kernel which thread owns it, and the
// owner's priority is raised until it unlocks, so a low-priority owner cannot starve a high-priority waiter (the
// inversion that retired `OSSpinLock`). An `os_unfair_lock` must not move while in use, and Swift does not promise a
// stable address for a stored property, so the lock lives in memory allocated once by `init()` and freed by `deinit`:
// the task stores a pointer to it, and a task costs two allocations instead of one. `os_unfair_lock` exists since
// macOS 10.12 / iOS 10, below the package's floor, and needs no `Synchronization` (whose `Mutex` and `Atomic` start at
// macOS 15 / iOS 18). On Linux, CI compiles and tests this branch too, with the trait DarwinStandIns, against a
// stand-in `os_unfair_lock` (Sources/DarwinStandIns: Apple's declarations over a futex, trapping on misuse as Apple's
// does); what that cannot show is in README.md, "Platforms".
//
// Linux (glibc or musl): one atomic word stored inline in the task, so a task is one allocation. Why not
// `Synchronization.Mutex`? On Linux it is built on priority-inheritance futexes: when the lock is contended the kernel
// hands it to the next thread without any atomic operation in user space, so the thread sanitizer cannot see the
// hand-over and reports races that are not there. The critical sections here are a few stores and never run user
// code, so a compare-and-swap lock that yields the processor while contended is both simple and fast, and every
// hand-over is an atomic release/acquire pair that the sanitizer understands. It does not donate priority, and on
// Linux it need not: the default scheduler gives every runnable thread a share of the processor, weighted by its nice
// value rather than strictly by priority, so a waiter that spins and then yields slows the owner but cannot shut it
// out. (Strict priorities, which that starvation needs, come on Linux only with the real-time policies `SCHED_FIFO`
// and `SCHED_RR`.)

#if canImport(Darwin)
    import Darwin
#elseif DARWIN_STANDINS
    import DarwinStandIns
#else
    import Synchronization

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #endif
#endif

#if canImport(Darwin) || DARWIN_STANDINS
    /// A lock that donates priority: an `os_unfair_lock` at an address that never changes.
    ///
    /// `@unchecked Sendable`: the lock is meant to be shared, and the pointer is written only by `init` and `deinit`.
    @usableFromInline
    struct BFLock: ~Copyable, @unchecked Sendable {
        /// The lock, allocated once so that it never moves.
        @usableFromInline let unfair: os_unfair_lock_t

        @inlinable
        init() {
            unfair = .allocate(capacity: 1)
            unfair.initialize(to: os_unfair_lock())
        }

        deinit {
            unfair.deinitialize(count: 1)
            unfair.deallocate()
        }

        /// Runs `body` while holding the lock. `body` must be short and must not run user code.
        @inlinable
        func withLock<R>(_ body: () throws -> R) rethrows -> R {
            os_unfair_lock_lock(unfair)
            defer { os_unfair_lock_unlock(unfair) }
            return try body()
        }
    }
#else
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
#endif
