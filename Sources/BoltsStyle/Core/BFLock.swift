// BFLock.swift: the lock inside every task, guarding its state machine: one per platform family behind the same two
// calls (`init()`, `withLock`).
//
// Apple platforms: `os_unfair_lock`, whose waiters donate their priority to the owner, so a low-priority owner cannot
// starve a high-priority waiter. It must not move while in use, and Swift does not promise a stored property a stable
// address, so `init()` allocates it once and `deinit` frees it: a task is two allocations there. CI on Linux compiles
// and tests this branch with the trait DarwinStandIns, against a stand-in `os_unfair_lock` (Sources/DarwinStandIns).
//
// Linux (glibc or musl): one atomic word stored inline in the task, so a task is one allocation: a compare-and-swap
// acquires it and a releasing store releases it, both compiled into this module. It donates no priority, and on Linux
// it need not: the default scheduler shares the processor among runnable threads by weight, not strictly by priority,
// so a waiter that spins and then yields cannot keep the owner off the processor.
//
// Why not Synchronization.Mutex: docs/guide.md, "Why the locks are not Mutex".

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

        /// How many times a waiter spins before it yields the processor on every further try.
        static let spinLimit = 64

        @usableFromInline
        func lockContended() {
            var spins = 0
            while true {
                if !locked.load(ordering: .relaxed),
                    locked.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged
                {
                    return
                }
                spins += 1
                if spins >= BFLock.spinLimit { sched_yield() }
            }
        }
    }
#endif
