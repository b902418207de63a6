import BoltsStyle
import Dispatch
import Foundation
import TestSupport
import Testing

@Suite("Continuation order while a task completes", .offThePool)
struct OrderingTests {
    /// A continuation added to a completed task while the completing thread is still running the earlier
    /// continuations must not overtake them (Promises/A+ 2.2.6). The middle continuation holds the completing
    /// thread until the first one, already running on the serial queue, has added the third.
    @Test func continuationAddedWhileCompletingRunsAfterTheEarlierOnes() {
        let queue = DispatchQueue(label: "BoltsStyleTests.ordering")
        let source = BFTaskCompletionSource<Int>()
        let log = EventLog()
        let thirdAdded = DispatchSemaphore(value: 0)
        let allRan = DispatchSemaphore(value: 0)
        source.task.continueWith(.queue(queue)) { task in
            log.append("1")
            task.continueWith(.queue(queue)) { _ in
                log.append("3")
                allRan.signal()
            }
            thirdAdded.signal()
        }
        source.task.continueWith(.immediate) { _ in
            _ = thirdAdded.wait(timeout: .now() + generousTimeout)
        }
        source.task.continueWith(.queue(queue)) { _ in log.append("2") }
        source.set(result: 1)
        #expect(allRan.wait(timeout: .now() + generousTimeout) == .success)
        queue.sync {}
        #expect(log.events == ["1", "2", "3"])
    }

    /// Once the completing thread has started the last continuation (none was added since it took them), the task no
    /// longer drains: a continuation another thread adds then runs at once on that thread, as in Bolts-Swift, where
    /// adding to a completed task always runs it at once. (The differential traces met this: a continuation added by
    /// the driver right after a global queue's thread ran the last one.) The last continuation holds the completing
    /// thread until the other thread's continuation has run.
    @Test func continuationAddedWhileTheLastOneRunsRunsAtOnceOnItsThread() {
        let source = BFTaskCompletionSource<Int>()
        let lastStarted = DispatchSemaphore(value: 0)
        let addedRan = DispatchSemaphore(value: 0)
        let log = EventLog()
        source.task.continueWith(.immediate) { _ in log.append("first") }
        source.task.continueWith(.immediate) { _ in
            log.append("last")
            lastStarted.signal()
            #expect(addedRan.wait(timeout: .now() + generousTimeout) == .success)
        }
        let completing = DispatchQueue(label: "BoltsStyleTests.completing")
        completing.async { source.set(result: 1) }
        #expect(lastStarted.wait(timeout: .now() + generousTimeout) == .success)
        nonisolated(unsafe) let adder = Thread.current
        nonisolated(unsafe) var ranOnAdder = false
        source.task.continueWith(.immediate) { _ in
            ranOnAdder = Thread.current === adder
            log.append("added")
        }
        addedRan.signal()
        completing.sync {}
        #expect(ranOnAdder)
        #expect(log.events == ["first", "last", "added"])
    }

    /// A continuation the completing thread adds itself while it drains (from inside an earlier continuation) runs at
    /// once, nested inside the one that added it, before the continuations still waiting: A, C, B, as in Bolts-Swift,
    /// where adding to a completed task runs the continuation at once. (The toy `ToyTask` appends it: A, B, C.)
    @Test func continuationTheCompletingThreadAddsWhileDrainingRunsAtOnce() {
        let source = BFTaskCompletionSource<Int>()
        nonisolated(unsafe) var order: [String] = []
        source.task.continueWith(.immediate) { task in
            order.append("A")
            task.continueWith(.immediate) { _ in order.append("C") }
            order.append("A returns")
        }
        source.task.continueWith(.immediate) { _ in order.append("B") }
        source.set(result: 1)
        #expect(order == ["A", "C", "A returns", "B"])
    }

    /// The exception above runs C like any inline run: where A runs at `.immediate`'s depth limit
    /// (`BFTrampoline.immediateDepthLimit` nested runs), C is parked on the thread's trampoline and runs after B, once
    /// the outermost run drains it.
    @Test func atTheDepthLimitTheCompletingThreadsOwnContinuationRunsAfterTheOthers() {
        func order(afterLinks links: Int) -> [String] {
            let source = BFTaskCompletionSource<Int>()
            var tail = source.task
            for _ in 0..<links { tail = tail.continueWith(.immediate) { $0.result! } }  // link k runs k deep
            nonisolated(unsafe) var log: [String] = []
            let last = tail
            last.continueWith(.immediate) { task in
                log.append("A")
                task.continueWith(.immediate) { _ in log.append("C") }
            }
            last.continueWith(.immediate) { _ in log.append("B") }
            source.set(result: 1)
            return log
        }
        #expect(order(afterLinks: 62) == ["A", "C", "B"])  // A runs 63 deep: C runs at once, 64 deep
        #expect(order(afterLinks: 63) == ["A", "B", "C"])  // A runs 64 deep: C would be the 65th, so it is parked
        // Settled 64 deep, the task parks its whole drain; run from the outermost level, A nests C again.
        #expect(order(afterLinks: 64) == ["A", "C", "B"])
    }
}
