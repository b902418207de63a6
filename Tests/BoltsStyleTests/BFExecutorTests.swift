import BoltsStyle
import Dispatch
import Foundation
import TestSupport
import Testing

@Suite("BFExecutor")
struct BFExecutorTests {
    @Test func defaultRunsRightAwayWhenShallow() {
        nonisolated(unsafe) var ran = false
        BFExecutor.default.execute { ran = true }
        #expect(ran)
    }

    @Test func immediateRunsRightAway() {
        nonisolated(unsafe) var ran = false
        BFExecutor.immediate.execute { ran = true }
        #expect(ran)
    }

    @Test(.offThePool) func defaultHopsToAnotherThreadWhenNestedTooDeep() {
        // Nest `.default` executions; past Bolts' depth guard one of them must be dispatched
        // to a global queue, that is, run on another thread than the one that called `execute`.
        let hops = Counter()
        let done = DispatchSemaphore(value: 0)
        @Sendable func nest(_ level: Int) {
            nonisolated(unsafe) let caller = Thread.current
            BFExecutor.default.execute {
                if Thread.current !== caller { hops.increment() }
                if level < 40 { nest(level + 1) } else { done.signal() }
            }
        }
        nest(0)
        #expect(done.wait(timeout: .now() + generousTimeout) == .success)
        #expect(hops.value >= 1)
    }

    @Test func immediateDefersDeepNestingToTheSameThread() {
        // Past the inline limit `.immediate` enqueues work on the same thread's trampoline: it runs
        // after `execute` returned, but before the outermost call returns, on the same thread.
        nonisolated(unsafe) let thread = Thread.current
        nonisolated(unsafe) var deferred = 0
        nonisolated(unsafe) var sameThread = true
        nonisolated(unsafe) var deepest = 0
        @Sendable func nest(_ level: Int) {
            let returned = Locked(false)
            BFExecutor.immediate.execute {
                if returned.withLock({ $0 }) { deferred += 1 }
                if Thread.current != thread { sameThread = false }
                deepest = max(deepest, level)
                if level < 300 { nest(level + 1) }
            }
            returned.withLock { $0 = true }
        }
        nest(0)
        #expect(deepest == 300)
        #expect(deferred >= 1)
        #expect(sameThread)
    }

    @Test(.offThePool) func queueExecutorRunsOnItsQueue() {
        let queue = DispatchQueue(label: "executor.queue")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 3)
        let done = DispatchSemaphore(value: 0)
        let onQueue = Counter()
        BFExecutor.queue(queue).execute {
            if DispatchQueue.getSpecific(key: key) == 3 { onQueue.increment() }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + generousTimeout) == .success)
        #expect(onQueue.value == 1)
    }

    @Test(.offThePool) func operationQueueExecutorAddsAnOperation() {
        let queue = OperationQueue()
        queue.name = "executor.operations"
        let done = DispatchSemaphore(value: 0)
        let onQueue = Counter()
        BFExecutor.operationQueue(queue).execute {
            if OperationQueue.current === queue { onQueue.increment() }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + generousTimeout) == .success)
        #expect(onQueue.value == 1)
    }

    @Test func closureExecutorsReceiveTheWork() {
        var calls = 0
        let closure = BFExecutor.closure { work in
            calls += 1
            work()
        }
        nonisolated(unsafe) var ran = false
        closure.execute { ran = true }
        #expect(ran && calls == 1)

        var saved: [() -> Void] = []
        let escaping = BFExecutor.escapingClosure { work in saved.append(work) }
        let task = BFTask(1).continueWith(escaping) { $0.result! + 1 }
        #expect(!task.completed)
        #expect(saved.count == 1)
        for work in saved { work() }
        #expect(task.result == 2)
        saved.removeAll()  // each saved work holds the executor, whose closure holds `saved`: a cycle until now
    }

    @Test(.offThePool) func mainThreadExecutorDoesNotRunInlineOffTheMainThread() {
        // Off the main thread `.mainThread` must enqueue on the main queue, never run inside
        // `execute`. (Whether and where the main queue is served is up to the process; on Linux it
        // may even be a worker thread after `dispatchMain()`. This test does not wait for it.)
        let insideExecute = CallerMarker()
        let ranInline = Counter()
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            insideExecute.begin()
            BFExecutor.mainThread.execute {
                if insideExecute.isCallerInside() { ranInline.increment() }
            }
            insideExecute.end()
            done.signal()
        }
        #expect(done.wait(timeout: .now() + generousTimeout) == .success)
        #expect(ranInline.value == 0)
    }

    @Test func descriptions() {
        let queue = DispatchQueue(label: "described")
        let operations = OperationQueue()
        operations.name = "ops"
        #expect(BFExecutor.default.description == "Default Executor")
        #expect(BFExecutor.immediate.description == "Immediate Executor")
        #expect(BFExecutor.mainThread.description == "MainThread Executor")
        #expect(BFExecutor.queue(queue).description == "Executor with dispatch_queue")
        #expect(BFExecutor.queue(queue).debugDescription == "Executor with dispatch_queue: \(queue)")
        #expect(BFExecutor.operationQueue(operations).description == "Executor with NSOperationQueue")
        #expect(
            BFExecutor.operationQueue(operations).debugDescription == "Executor with NSOperationQueue: \(operations)")
        #expect(BFExecutor.closure { $0() }.description == "Executor with custom closure")
        #expect(BFExecutor.escapingClosure { $0() }.description == "Executor with custom escaping closure")
        #expect(BFExecutor.closure { $0() }.debugDescription.hasPrefix("Executor with custom closure: "))
        #expect(BFExecutor.immediate.debugDescription == "Immediate Executor")
    }
}

/// Tells whether the current thread is the one inside a marked region.
final class CallerMarker: @unchecked Sendable {
    private let lock = NSLock()
    private var caller: Thread?

    func begin() { lock.withLock { caller = Thread.current } }
    func end() { lock.withLock { caller = nil } }
    func isCallerInside() -> Bool { lock.withLock { caller === Thread.current } }
}
