import Dispatch
import PromisePlumbing
import Testing

/// The shared lock excludes: two threads that each add to one counter 100,000 times under it leave it at 200,000.
@Suite struct LockTests {
    @Test func twoThreadsIncrementingUnderTheLockLoseNoIncrement() {
        let counter = Counter()
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            for _ in 0..<100_000 { counter.lock.withLock { counter.value += 1 } }
        }
        #expect(counter.value == 200_000)
    }

    /// `lock()` and `unlock()` in one function, as FBLStyle's critical sections take them, guard as `withLock` does.
    @Test func lockAndUnlockGuardAsWithLockDoes() {
        let counter = Counter()
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            for _ in 0..<100_000 {
                counter.lock.lock()
                counter.value += 1
                counter.lock.unlock()
            }
        }
        #expect(counter.value == 200_000)
    }
}

/// A counter and the lock that guards it.
private final class Counter: @unchecked Sendable {
    let lock = Lock()
    var value = 0
}
