// The stand-in `os_unfair_lock` (Sources/DarwinStandIns), built only with the trait DarwinStandIns: it must trap on
// the misuse Apple's traps on, exclude, and try-lock as Apple's does, since the styles' Apple branches are tested
// against it.
#if DARWIN_STANDINS
    import Dispatch
    import DarwinStandIns
    import Testing

    /// A lock at an address that never moves, as the styles keep theirs.
    final class UnfairLockBox: @unchecked Sendable {
        let lock: os_unfair_lock_t = .allocate(capacity: 1)
        init() { lock.initialize(to: os_unfair_lock()) }
        deinit {
            lock.deinitialize(count: 1)
            lock.deallocate()
        }
    }

    /// Runs `body` on a thread of the global queue, never the caller's, and waits for it.
    func onAnotherThread(_ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            body()
            done.signal()
        }
        done.wait()
    }

    @Suite("os_unfair_lock stand-in")
    struct OSUnfairLockTests {
        /// What Apple's libplatform prints before it traps on an unlock by a thread that does not hold the lock.
        static let unlockNotOwned =
            "BUG IN CLIENT OF LIBPLATFORM: Unlock of an os_unfair_lock not owned by current thread"

        @Test func startsUnlockedAndHoldsTheOwnerWhileLocked() {
            let box = UnfairLockBox()
            #expect(box.lock.pointee._os_unfair_lock_opaque == 0)
            os_unfair_lock_lock(box.lock)
            #expect(box.lock.pointee._os_unfair_lock_opaque != 0)
            os_unfair_lock_assert_owner(box.lock)
            os_unfair_lock_unlock(box.lock)
            #expect(box.lock.pointee._os_unfair_lock_opaque == 0)
            os_unfair_lock_assert_not_owner(box.lock)
        }

        @Test func unlockFromAnotherThreadTrapsWithApplesMessage() async throws {
            let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let box = UnfairLockBox()
                os_unfair_lock_lock(box.lock)
                onAnotherThread { os_unfair_lock_unlock(box.lock) }
            }
            #expect(standardError(of: result).contains(Self.unlockNotOwned))
        }

        @Test func unlockOfAnUnlockedLockTrapsWithApplesMessage() async throws {
            let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let box = UnfairLockBox()
                os_unfair_lock_unlock(box.lock)
            }
            #expect(standardError(of: result).contains(Self.unlockNotOwned))
        }

        @Test func recursiveLockTraps() async throws {
            let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let box = UnfairLockBox()
                os_unfair_lock_lock(box.lock)
                os_unfair_lock_lock(box.lock)
            }
            #expect(
                standardError(of: result).contains(
                    "BUG IN CLIENT OF LIBPLATFORM: Trying to recursively lock an os_unfair_lock"))
        }

        @Test func ownershipAssertionsTrap() async {
            await #expect(processExitsWith: .failure) {
                let box = UnfairLockBox()
                os_unfair_lock_assert_owner(box.lock)
            }
            await #expect(processExitsWith: .failure) {
                let box = UnfairLockBox()
                os_unfair_lock_lock(box.lock)
                os_unfair_lock_assert_not_owner(box.lock)
            }
            await #expect(processExitsWith: .failure) {
                let box = UnfairLockBox()
                os_unfair_lock_lock(box.lock)
                onAnotherThread { os_unfair_lock_assert_owner(box.lock) }
            }
        }

        @Test func trylockTakesOnlyAFreeLock() {
            let box = UnfairLockBox()
            #expect(os_unfair_lock_trylock(box.lock))
            os_unfair_lock_assert_owner(box.lock)
            #expect(!os_unfair_lock_trylock(box.lock))  // held, by this thread: Apple's trylock does not recurse
            let takenElsewhere = Counter()
            onAnotherThread { if os_unfair_lock_trylock(box.lock) { takenElsewhere.value += 1 } }
            #expect(takenElsewhere.value == 0)
            os_unfair_lock_unlock(box.lock)
            onAnotherThread {
                if os_unfair_lock_trylock(box.lock) {
                    takenElsewhere.value += 1
                    os_unfair_lock_unlock(box.lock)
                }
            }
            #expect(takenElsewhere.value == 1)
        }

        /// Eight threads add to one plain counter under the lock: no increment may be lost, and (under the thread
        /// sanitizer) no access may race.
        @Test func excludesConcurrentHolders() {
            let box = UnfairLockBox()
            let counter = Counter()
            let threads = 8
            let increments = 20_000
            DispatchQueue.concurrentPerform(iterations: threads) { _ in
                for _ in 0..<increments {
                    os_unfair_lock_lock(box.lock)
                    counter.value += 1
                    os_unfair_lock_unlock(box.lock)
                }
            }
            #expect(counter.value == threads * increments)
        }
    }

    /// What the exited process wrote to its standard error.
    func standardError(of result: ExitTest.Result) -> String {
        String(decoding: result.standardErrorContent, as: UTF8.self)
    }

    /// A plain counter; the tests guard it with the lock under test, or hand it over through a semaphore.
    final class Counter: @unchecked Sendable {
        var value = 0
    }
#endif
