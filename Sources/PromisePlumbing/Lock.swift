// Lock.swift: the lock every style guards its state machine with (`Lock`), and the back-off its waiters use
// (`Backoff`, also PromiseKitStyle's reader-writer barrier's). The same job in the three styles, so it is written once;
// what each style guards with it, and when, stays in the style.
//
// Apple platforms: `os_unfair_lock`, whose waiters donate their priority to the owner, so a low-priority owner cannot
// starve a high-priority waiter. It must not move while in use, and Swift does not promise a stored property a stable
// address, so `init()` allocates it once and `deinit` frees it: one allocation more per promise. CI on Linux compiles
// and tests this branch with the trait DarwinStandIns, against a stand-in `os_unfair_lock` (Sources/DarwinStandIns).
//
// Linux (glibc or musl): one atomic word stored inline in its owner (no allocation), taken with a compare-and-swap
// and released with a store. Critical sections are a few loads and stores, so a waiter spins `Backoff.spinLimit` times
// and then yields the processor on every further try. It donates no priority: Linux's default scheduler shares the
// processor by weight rather than strictly by priority, so a spinning waiter that yields cannot keep the owner from
// running.
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
    /// An `os_unfair_lock` allocated once, so that its address never changes while it is in use.
    ///
    /// `@unchecked Sendable`: sharing it between threads is its purpose; `unfair` is written only by `init` and
    /// `deinit`. Lock and unlock on the same thread (`os_unfair_lock` checks its owner).
    @usableFromInline
    package struct Lock: ~Copyable, @unchecked Sendable {
        /// The lock, allocated once so that it never moves.
        @usableFromInline let unfair: os_unfair_lock_t

        /// A free lock.
        @inlinable package init() {
            unfair = .allocate(capacity: 1)
            unfair.initialize(to: os_unfair_lock())
        }

        deinit {
            unfair.deinitialize(count: 1)
            unfair.deallocate()
        }

        /// Runs `body` with the lock held. `body` must be short and must not run user code.
        @inlinable package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
            lock()
            defer { unlock() }
            return try body()
        }

        /// Takes the lock, waiting while another thread holds it.
        @inlinable package func lock() {
            os_unfair_lock_lock(unfair)
        }

        /// Releases the lock this thread holds.
        @inlinable package func unlock() {
            os_unfair_lock_unlock(unfair)
        }
    }
#else
    /// How a waiter waits for a word another thread holds: it tries `spinLimit` times, then yields the processor
    /// before every further try. (Apple platforms need none: `os_unfair_lock` waits in the kernel.)
    @usableFromInline
    package struct Backoff {
        /// How many times a waiter tries again before it yields the processor on every further try.
        static let spinLimit = 64

        /// The tries that failed so far.
        @usableFromInline var spins = 0

        /// A waiter that has not tried yet.
        @inlinable package init() {}

        /// Counts a failed try; once `spinLimit` tries have failed, yields the processor first.
        @usableFromInline package mutating func wait() {
            if spins >= Backoff.spinLimit { sched_yield() }
            spins += 1
        }
    }

    /// A minimal lock over one atomic word, stored inline in its owner: compare-and-swap to take it, a releasing
    /// store to release it, `Backoff` while another thread holds it.
    @usableFromInline
    package struct Lock: ~Copyable, Sendable {
        /// Whether a thread holds the lock.
        @usableFromInline let isLocked = Atomic<Bool>(false)

        /// A free lock.
        @inlinable package init() {}

        /// Runs `body` with the lock held. `body` must be short and must not run user code.
        @inlinable package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
            lock()
            defer { unlock() }
            return try body()
        }

        /// Takes the lock, waiting while another thread holds it.
        @inlinable package func lock() {
            if !isLocked.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {
                lockContended()
            }
        }

        /// Waits for the lock another thread holds, trying the exchange only after a plain load has seen it free.
        @usableFromInline func lockContended() {
            var backoff = Backoff()
            while true {
                if !isLocked.load(ordering: .relaxed),
                    isLocked.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged
                {
                    return
                }
                backoff.wait()
            }
        }

        /// Releases the lock this thread holds.
        @inlinable package func unlock() {
            isLocked.store(false, ordering: .releasing)
        }
    }
#endif
