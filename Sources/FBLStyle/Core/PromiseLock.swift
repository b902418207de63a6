// PromiseLock.swift: the lock of every promise (`lock()`, `unlock()` and `withLock`), built on a different primitive
// per platform. (Google's FBLPromise guards its state with `@synchronized(self)`, a recursive lock; none is needed
// here, because no critical section takes the lock again.)
//
// Apple platforms: `os_unfair_lock`. Its waiters donate their priority to the owner, so a background thread holding a
// promise's lock is not starved by a user-interactive thread waiting for it. It must not move while in use, which a
// stored property in Swift does not guarantee, so `init()` allocates it once and `deinit` frees it: one allocation
// more per promise. CI on Linux compiles and tests this branch with the trait DarwinStandIns, against a stand-in
// `os_unfair_lock` (Sources/DarwinStandIns).
//
// Linux (glibc or musl): one atomic word stored inline, taken with a compare-and-swap and released with a store.
// Critical sections are a few loads and stores, so a waiter spins `spinLimit` times and then yields the processor on
// every further try. It donates no priority; Linux's default scheduler shares the processor by weight rather than
// strictly by priority, so a spinning waiter that yields cannot keep the owner from running.
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
    @usableFromInline struct PromiseLock: ~Copyable, @unchecked Sendable {
        @usableFromInline let unfair: os_unfair_lock_t

        @inlinable init() {
            unfair = .allocate(capacity: 1)
            unfair.initialize(to: os_unfair_lock())
        }

        deinit {
            unfair.deinitialize(count: 1)
            unfair.deallocate()
        }

        /// Runs `body` with the lock held.
        @inlinable func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
            lock()
            defer { unlock() }
            return try body()
        }

        @inlinable func lock() {
            os_unfair_lock_lock(unfair)
        }

        @inlinable func unlock() {
            os_unfair_lock_unlock(unfair)
        }
    }
#else
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

        /// How many times a waiter tries again before it yields the processor on every further try.
        static let spinLimit = 64

        /// Waits for the lock held by another thread: spins `spinLimit` tries, then yields before each further one.
        @usableFromInline func lockContended() {
            var spins = 0
            while true {
                if !isLocked.load(ordering: .relaxed),
                    isLocked.compareExchange(
                        expected: false, desired: true, successOrdering: .acquiring, failureOrdering: .relaxed
                    ).exchanged
                {
                    return
                }
                if spins >= Self.spinLimit { sched_yield() }
                spins += 1
            }
        }

        @inlinable func unlock() {
            isLocked.store(false, ordering: .releasing)
        }
    }
#endif
