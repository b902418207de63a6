import BoltsStyle
import Dispatch
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
}
