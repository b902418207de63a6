import Dispatch
import PromiseKitStyle
import TestSupport
import Testing

@Suite("Handler order while a promise is sealed", .offThePool)
struct OrderingTests {
    /// A handler piped to a sealed promise while the sealing thread is still running the earlier handlers must not
    /// overtake them (Promises/A+ 2.2.6). The middle handler holds the sealing thread until the first one, already
    /// running on the serial queue, has added the third.
    @Test func handlerAddedWhileSealingRunsAfterTheEarlierOnes() {
        let queue = DispatchQueue(label: "PromiseKitStyleTests.ordering")
        let (promise, resolver) = Promise<Int>.pending()
        let log = EventLog()
        let thirdAdded = DispatchSemaphore(value: 0)
        let allRan = DispatchSemaphore(value: 0)
        promise.done(on: queue) { _ in
            log.add("1")
            promise.done(on: queue) { _ in
                log.add("3")
                allRan.signal()
            }.cauterize()
            thirdAdded.signal()
        }.cauterize()
        promise.done(on: nil) { _ in
            _ = thirdAdded.wait(timeout: .now() + TestEnvironment.hangGuard)
        }.cauterize()
        promise.done(on: queue) { _ in log.add("2") }.cauterize()
        resolver.fulfill(1)
        #expect(allRan.wait(timeout: .now() + TestEnvironment.hangGuard) == .success)
        queue.sync {}
        #expect(log.all == ["1", "2", "3"])
    }

    /// A handler the sealing thread pipes itself while it drains (from inside an earlier handler) runs at once, nested
    /// inside the one that piped it, before the handlers still waiting: A, C, B, as in PromiseKit, where piping to a
    /// sealed box runs the handler at once. (The toy `QueueBox` appends it: A, B, C.)
    @Test func handlerTheSealingThreadPipesWhileDrainingRunsAtOnce() {
        let (promise, resolver) = Promise<Int>.pending()
        var order: [String] = []
        promise.done(on: nil) { _ in
            order.append("A")
            promise.done(on: nil) { _ in order.append("C") }.cauterize()
            order.append("A returns")
        }.cauterize()
        promise.done(on: nil) { _ in order.append("B") }.cauterize()
        resolver.fulfill(1)
        #expect(order == ["A", "C", "A returns", "B"])
    }
}
