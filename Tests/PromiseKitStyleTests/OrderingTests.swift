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

    /// The one exception to the order piped: a handler that the sealing thread itself pipes while it drains (here from
    /// inside handler A) runs at once, nested, before the handlers waiting (B), as in PromiseKit. The order is A, C, B.
    @Test func aHandlerPipedByTheSealingThreadWhileItDrainsRunsAtOnce() {
        let (promise, resolver) = Promise<Int>.pending()
        nonisolated(unsafe) var log: [String] = []  // every handler runs inline on this thread
        promise.done(on: nil) { _ in
            log.append("A")
            promise.done(on: nil) { _ in log.append("C") }.cauterize()
        }.cauterize()
        promise.done(on: nil) { _ in log.append("B") }.cauterize()
        resolver.fulfill(1)
        #expect(log == ["A", "C", "B"])
    }

    /// The exception above runs through the trampoline like every inline run: on a thread already 16 inline runs deep
    /// (`HandlerTrampoline.inlineDepthLimit`) C is enqueued, and runs after B, once the outermost run drains.
    @Test func atTheDepthLimitTheSealingThreadsOwnHandlerRunsAfterTheOthers() {
        func order(afterLinks links: Int) -> [String] {
            let (root, resolver) = Promise<Int>.pending()
            nonisolated(unsafe) var tail = root
            for _ in 0..<links { tail = tail.map(on: nil) { $0 } }  // link k is sealed k inline runs deep
            nonisolated(unsafe) var log: [String] = []
            tail.done(on: nil) { _ in
                log.append("A")
                tail.done(on: nil) { _ in log.append("C") }.cauterize()
            }.cauterize()
            tail.done(on: nil) { _ in log.append("B") }.cauterize()
            resolver.fulfill(1)
            return log
        }
        #expect(order(afterLinks: 14) == ["A", "C", "B"])  // A runs 15 deep: C runs at once, 16 deep
        #expect(order(afterLinks: 15) == ["A", "B", "C"])  // A runs 16 deep: C would be the 17th, so it waits
    }
}
