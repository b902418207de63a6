import Foundation
import Testing

/// A trait for tests that block their thread or keep it busy for long: a semaphore wait, `wait()`,
/// `waitUntilCompleted()`, `waitForPromises`, `concurrentPerform`, or a million-step chain.
///
/// Swift Testing starts every test of the process at once and runs them on Swift concurrency's cooperative pool,
/// which has one thread per core: two on a 2-core machine. A test that blocks one of those threads for seconds
/// (longer still when other processes keep the cores busy) holds up every other test's continuations, and the
/// guide's scenarios, which have a time limit, then wait for a thread rather than for their own work. Under this
/// trait the test's task prefers ``GrowingThreadPool``, whose threads are neither the cooperative pool's nor
/// Dispatch's: what the test blocks is a thread of its own.
///
///     @Suite(.offThePool) struct StackDepthTests { ... }
public struct OffThePool: TestTrait, SuiteTrait, TestScoping {
    /// Applies to every test of a suite it is attached to.
    public var isRecursive: Bool { true }

    /// Runs the test with ``GrowingThreadPool`` as its task's preferred executor.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        // A suite's scope is entered once for the suite and once for each test case: only the test cases need it.
        guard testCase != nil else { return try await function() }
        try await withTaskExecutorPreference(GrowingThreadPool.shared) { try await function() }
    }
}

extension Trait where Self == OffThePool {
    /// Runs the test's code on threads of its own instead of Swift concurrency's cooperative pool.
    public static var offThePool: OffThePool { OffThePool() }
}

/// A task executor with threads of its own, one more whenever every thread it has is busy.
///
/// Neither of the shared pools can take blocked tests: a blocked thread of Swift concurrency's cooperative pool is
/// lost to every task, and Dispatch on Linux adds a thread to its global queues only after a blocked one has been
/// noticed, so tests waiting there delay the very queue work (the styles' hops, the simulated network) they wait
/// for. Here a job that blocks holds its own thread, and the next job finds an idle thread or a new one. Threads are
/// kept for later jobs; a test process has at most as many as tests that blocked at the same time.
public final class GrowingThreadPool: TaskExecutor, @unchecked Sendable {
    /// The one instance the trait uses.
    public static let shared = GrowingThreadPool()

    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var idle = 0

    /// Runs `job` on an idle thread of the pool, or on a new one.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        let spawn = idle < jobs.count
        if spawn { idle += 1 }  // the new thread counts as idle until it takes a job
        condition.signal()
        condition.unlock()
        if spawn {
            let thread = Thread { [self] in serve() }
            thread.name = "TestSupport.GrowingThreadPool"
            thread.start()
        }
    }

    private func serve() {
        let executor = asUnownedTaskExecutor()
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            idle -= 1
            condition.unlock()
            job.runSynchronously(on: executor)
            condition.lock()
            idle += 1
            condition.unlock()
        }
    }
}
