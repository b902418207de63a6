import Dispatch
import Foundation
import TestSupport
import Testing

/// `.offThePool` keeps a test's blocking waits off Swift concurrency's cooperative pool.
@Suite struct OffThePoolTests {
    /// More tests block at once than the cooperative pool has threads, and only a task on that pool can release
    /// them. On the pool this deadlocks; off it, the releasing task finds a thread and every waiter returns.
    @Test(.offThePool) func moreBlockedWaitersThanPoolThreadsStillLetThePoolRun() async {
        let waiters = ProcessInfo.processInfo.activeProcessorCount + 2
        let gate = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        let released = Locked(0)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<waiters {
                group.addTask(executorPreference: GrowingThreadPool.shared) {
                    started.signal()
                    gate.wait()
                    released.withLock { $0 += 1 }
                }
            }
            // Every waiter is blocked (or about to be) before the pool is asked for a thread.
            for _ in 0..<waiters { started.wait() }
            await Task.detached { for _ in 0..<waiters { gate.signal() } }.value
        }
        #expect(released.withLock { $0 } == waiters)
    }

    /// The trait's test keeps its task: task-local values, `#expect` and cancellation work as usual.
    @Test(.offThePool) func theTestKeepsItsTask() async {
        #expect(Test.current != nil)
        #expect(!Task.isCancelled)
        await Task.yield()
        #expect(Test.current != nil)
    }
}
