import BoltsStyle
import Dispatch
import Foundation
import TestSupport
import Testing

@Suite("BFTask creation and state")
struct BFTaskTests {
    @Test func resultTaskHasSucceeded() {
        let task = BFTask(42)
        #expect(task.completed)
        #expect(!task.faulted)
        #expect(!task.cancelled)
        #expect(task.result == 42)
        #expect(task.error == nil)
        #expect(task.description == "BFTask: success(42)")
        #expect(task.debugDescription == task.description)
    }

    @Test func errorTaskHasFaulted() {
        let task = BFTask<Int>(error: TestError(code: 7))
        #expect(task.completed)
        #expect(task.faulted)
        #expect(!task.cancelled)
        #expect(task.result == nil)
        #expect(task.error as? TestError == TestError(code: 7))
        #expect(task.description == "BFTask: error(\(String(reflecting: TestError(code: 7))))")
    }

    @Test func cancelledTaskIsCancelled() {
        let task = BFTask<String>.cancelledTask()
        #expect(task.completed)
        #expect(task.cancelled)
        #expect(!task.faulted)
        #expect(task.result == nil)
        #expect(task.error == nil)
        #expect(task.description == "BFTask: cancelled")
    }

    @Test func pendingTaskHasNoOutcome() {
        let source = BFTaskCompletionSource<Int>()
        let task = source.task
        #expect(!task.completed)
        #expect(!task.faulted)
        #expect(!task.cancelled)
        #expect(task.result == nil)
        #expect(task.error == nil)
        #expect(task.description == "BFTask: pending")
    }

    @Test func optionalResultKeepsItsNil() {
        let task = BFTask<Int?>(nil)
        #expect(task.completed)
        #expect(task.result == .some(nil))
    }

    @Test func executeRunsClosureOnDefaultExecutorRightAway() {
        let task = BFTask<Int>.execute { 6 * 7 }
        #expect(task.result == 42)
    }

    @Test(.offThePool) func executeOnQueueRunsThere() {
        let queue = DispatchQueue(label: "execute")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 1)
        let task = BFTask<Bool>.execute(.queue(queue)) { DispatchQueue.getSpecific(key: key) == 1 }
        task.waitForTest()
        #expect(task.result == true)
    }

    @Test func executeThatThrowsFaults() {
        let task = BFTask<Int>.execute(.immediate) { throw TestError(code: 1) }
        #expect(task.error as? TestError == TestError(code: 1))
    }

    @Test func executeThatThrowsCancelledErrorCancels() {
        let task = BFTask<Int>.execute(.immediate) { throw BFCancelledError() }
        #expect(task.cancelled)
    }

    @Test func executeWithTaskFollowsTheReturnedTask() {
        let source = BFTaskCompletionSource<String>()
        let task = BFTask<String>.executeWithTask { source.task }
        #expect(!task.completed)
        source.set(result: "done")
        #expect(task.result == "done")

        let failing = BFTask<String>.executeWithTask(.immediate) { throw TestError(code: 2) }
        #expect(failing.error as? TestError == TestError(code: 2))
        let cancelled = BFTask<String>.executeWithTask(.immediate) { BFTask<String>.cancelledTask() }
        #expect(cancelled.cancelled)
    }

    @Test(.offThePool) func waitUntilCompletedReturnsOnceCompletedFromAnotherThread() {
        let source = BFTaskCompletionSource<Int>()
        DispatchQueue.global().async { source.set(result: 5) }
        source.task.waitUntilCompleted()
        #expect(source.task.result == 5)
        // Already completed: returns at once.
        source.task.waitUntilCompleted()
        #expect(source.task.waitUntilCompleted(timeout: 0))
    }

    @Test(.offThePool) func waitWithTimeoutReportsATimeout() {
        let source = BFTaskCompletionSource<Int>()
        #expect(source.task.waitUntilCompleted(timeout: 0.01) == false)
        #expect(!source.task.completed)
        source.set(result: 1)
        #expect(source.task.waitUntilCompleted(timeout: generousTimeout))
    }

    @Test(.offThePool) func waitInsideDeepImmediateNestingRunsEnqueuedWork() {
        // Deep inside nested `.immediate` continuations, new work is enqueued on the thread's
        // trampoline; a wait there must run it instead of deadlocking.
        let source = BFTaskCompletionSource<Int>()
        var task = source.task
        for _ in 0..<200 {
            task = task.continueWith(.immediate) { $0.result! + 1 }
        }
        let observed = task.continueWith(.immediate) { finished -> Bool in
            let inner = BFTaskCompletionSource<Int>()
            let innerDone = inner.task.continueWith(.immediate) { $0.result! * 2 }
            inner.set(result: 21)
            return innerDone.waitUntilCompleted(timeout: generousTimeout) && innerDone.result == 42
        }
        source.set(result: 0)
        #expect(task.result == 200)
        #expect(observed.result == true)
    }
}
