// The lock of every promise: `lock()`, `unlock()` and `withLock`, built on a different primitive per platform.
// (Google's FBLPromise guards its state with `@synchronized(self)`, a recursive lock; none is needed here, because no
// critical section takes the lock again.)
//
// Apple platforms: `os_unfair_lock`. Its waiters donate their priority to the owner, so a background thread holding a
// promise's lock is not starved by a user-interactive thread waiting for it. It must keep one address while in use,
// which a stored property in Swift does not guarantee, so `init()` allocates it once and `deinit` frees it: one
// allocation more per promise. It is available far below the package's floor and needs no `Synchronization`. CI on
// Linux compiles and tests this branch with the trait DarwinStandIns, against a stand-in `os_unfair_lock`
// (Sources/DarwinStandIns: Apple's declarations over a futex, trapping on misuse as Apple's does).
//
// Linux (glibc or musl): one atomic word stored inline, taken with a compare-and-swap and released with a store.
// `Synchronization.Mutex` would do, but its lock lives in the (uninstrumented) standard library, so the thread
// sanitizer cannot see it synchronize and reports every guarded access as a race. This lock is made of atomic
// operations compiled into this module: acquire on lock, release on unlock, which the sanitizer understands. Critical
// sections are a few loads and stores, so a contended lock spins briefly and then yields its thread. It donates no
// priority; Linux's default scheduler shares the processor among runnable threads by weight, not strictly by
// priority, so the yielding waiter cannot keep the owner off the processor (see `BoltsStyle`'s `BFLock.swift`).

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
#endif
