import Dispatch
import Foundation

extension BFTask {
    /// Blocks the calling thread until the task completes.
    ///
    /// This consumes a thread while it waits; prefer a continuation or ``async()``. Never call it
    /// on the main thread while the task needs a ``BFExecutor/mainThread`` continuation to finish.
    public func waitUntilCompleted() {
        _ = waitUntilCompleted(deadline: .distantFuture)
    }

    /// Blocks the calling thread until the task completes or `timeout` seconds have passed.
    ///
    /// - Parameter timeout: The longest time to wait, in seconds.
    /// - Returns: `true` if the task completed, `false` if the wait timed out.
    public func waitUntilCompleted(timeout: TimeInterval) -> Bool {
        waitUntilCompleted(deadline: .now() + timeout)
    }

    private func waitUntilCompleted(deadline: DispatchTime) -> Bool {
        if completed { return true }
        // Work enqueued on this thread's trampoline may be what completes this task.
        BFTrampoline.current.runEnqueuedBeforeBlocking()
        if completed { return true }
        // The waiter is just one more callback: the semaphore exists only while someone waits.
        let semaphore = DispatchSemaphore(value: 0)
        addCallback { _, _ in semaphore.signal() }
        return semaphore.wait(timeout: deadline) == .success
    }
}
