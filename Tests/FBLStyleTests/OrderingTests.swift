import Dispatch
import FBLStyle
import Foundation
import TestSupport
import Testing

extension FBLStyleTests {
    /// Blocks chained on one promise reach a serial queue in the order of their `then` calls, also when one is
    /// chained from inside another's block while the resolving thread is still handing out the resolution
    /// (Promises/A+ 2.2.6). The window is a race, so the test repeats it; before the resolving thread kept the
    /// promise "draining", a few hundred rounds showed the third block overtaking the second.
    @Suite struct Ordering {
        /// Once the resolving thread is done, a block chained later runs at once (on its queue), whether the
        /// promise had no observer, one, or several when it was resolved.
        @Test(arguments: [0, 1, 3])
        func blockChainedAfterResolutionRuns(observersBefore: Int) async throws {
            let promise = Promise<Int>.pending()
            let before = (0..<observersBefore).map { _ in promise.then(on: serialQueue) { $0 } }
            promise.fulfill(7)
            for chained in before { #expect(try await chained.valueAfterWaiting() == 7) }
            #expect(try await promise.then(on: serialQueue) { $0 + 1 }.valueAfterWaiting() == 8)
            #expect(try await promise.recover(on: serialQueue) { _ in 0 }.valueAfterWaiting() == 7)
        }

        @Test(.offThePool) func blockChainedWhileResolvingRunsAfterTheEarlierOnes() {
            let rounds = isStressRun ? 20_000 : 500
            var misordered: [[String]] = []
            for _ in 0..<rounds {
                let promise = Promise<Int>.pending()
                let log = Box<[String]>([])
                let allRan = DispatchSemaphore(value: 0)
                promise.then(on: serialQueue) { _ in
                    log.value += ["1"]
                    promise.then(on: serialQueue) { _ in
                        log.value += ["3"]
                        allRan.signal()
                    }
                }
                promise.then(on: serialQueue) { _ in log.value += ["2"] }
                DispatchQueue.global().async { promise.fulfill(1) }
                #expect(allRan.wait(timeout: .now() + patience) == .success)
                serialQueue.sync {}
                if log.value != ["1", "2", "3"] { misordered.append(log.value) }
            }
            #expect(
                misordered.isEmpty,
                "\(misordered.count) of \(rounds) rounds out of order, e.g. \(misordered.first ?? [])")
        }
    }
}

extension FBLStyleTests {
    /// A block returning the promise its `then` returned would wait for itself forever and keep the global group
    /// entered, so that every later `waitForPromises` times out; it is rejected with `PromiseCycleError` instead.
    @Suite struct Cycle {
        @Test(.offThePool) func promiseResolvedWithItselfIsRejected() async {
            let derived = Box<Promise<Int>?>(nil)
            let started = Promise<Int>.pending()
            derived.value = started.then(on: serialQueue) { _ -> Promise<Int> in derived.value! }
            started.fulfill(1)
            let error = await derived.value!.errorAfterWaiting()
            #expect(error is PromiseCycleError)
            #expect(waitForPromises(timeout: patience))
        }
    }
}
