import Dispatch
import PromiseKitStyle
import TestSupport
import Testing

/// Behaviours of PromiseKit 8.2.0 that the differential traces found and PromiseKitStyle now matches, one test each,
/// with the smallest program that showed it (docs/differential-traces.md).
@Suite("Found by the differential traces")
struct TraceFindingsTests {
    /// `n0=pending P; n1=then n0 nil n0; n2=done n1 nil ok; n3=done n0 nil ok; fulfill n0 5`: PromiseKit runs h1, h2,
    /// h3. The handler of `then` returns the promise whose handlers are running; the `then` promise follows it at once,
    /// on the sealing thread, so its own handler (h2) runs before the source's next handler (h3).
    @Test func aHandlerPipedOnTheSealingThreadWhileItDrainsRunsAtOnce() {
        let (promise, resolver) = Promise<Int>.pending()
        nonisolated(unsafe) var log: [String] = []  // every handler runs inline on this thread
        let followed = promise.then(on: nil) { _ -> Promise<Int> in
            log.append("h1")
            return promise
        }
        followed.done(on: nil) { _ in log.append("h2") }.cauterize()
        promise.done(on: nil) { _ in log.append("h3") }.cauterize()
        resolver.fulfill(5)
        #expect(log == ["h1", "h2", "h3"])
    }

    /// `n0=value P 1; n1=ensureThen n0 nil gv; n2=done n1 nil ok`: PromiseKit runs h2 on `conf.Q.return`. Its
    /// `ensureThen` settles the promise it returns from a `done` on the body's guarantee, with that `done`'s default
    /// queue, whatever `on` says.
    @Test func ensureThenSettlesThroughTheDefaultReturnQueue() async {
        // `conf.Q` is process-wide: the check runs in a child process, where no other test sees the change.
        await #expect(processExitsWith: .success) {
            let key = DispatchSpecificKey<String>()
            let queue = DispatchQueue(label: "TraceFindingsTests.return")
            queue.setSpecific(key: key, value: "return")
            conf.Q = (map: nil, return: queue)
            let ran = DispatchSemaphore(value: 0)
            let seen = Locked<String?>(nil)
            // The queue is held until `done` is registered: the promise then settles on it, after registration, and
            // `done(on: nil)` runs on the settling thread.
            queue.suspend()
            Promise.value(1).ensureThen(on: nil) { Guarantee() }.done(on: nil) { _ in
                seen.withLock { $0 = DispatchQueue.getSpecific(key: key) }
                ran.signal()
            }.cauterize()
            queue.resume()
            precondition(ran.wait(timeout: .now() + 60) == .success, "the chain settled")
            precondition(seen.withLock { $0 } == "return", "done(on: nil) ran on conf.Q.return")
        }
    }
}
