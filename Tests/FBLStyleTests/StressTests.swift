import Dispatch
import Foundation
import TestSupport
import Testing

@testable import FBLStyle

extension FBLStyleTests {
    /// Long chains and many promises at once. One test at a time (`.serialized`): each keeps threads busy, several
    /// gain nothing on 2 cores, and under the thread sanitizer they contend on the Swift runtime's metadata-cache
    /// lock, which an unspecialized debug build takes at every generic step.
    @Suite(.offThePool, .serialized) struct Stress {
        /// A million chained `then` steps (``TestEnvironment/longChainLength``): no stack overflow.
        @Test func longThenChainCompletes() async throws {
            let steps = TestEnvironment.longChainLength
            let root = Promise<Int>.pending()
            var last = root
            for _ in 0..<steps {
                last = last.then(on: serialQueue) { $0 + 1 }
            }
            root.fulfill(0)
            #expect(try await last.valueAfterWaiting() == steps)
        }

        /// Dropping a long chain of pending promises releases it iteratively, not a million `deinit`s deep.
        @Test func droppingALongPendingChainDoesNotRecurse() throws {
            let steps = TestEnvironment.longChainLength
            weak var weakLast: Promise<Int>?
            do {
                let root = Promise<Int>.pending()
                var last = root
                for _ in 0..<steps {
                    last = last.then(on: serialQueue) { $0 + 1 }
                }
                weakLast = last
            }
            #expect(weakLast == nil)
            #expect(waitForPromises(timeout: patience), "every dropped pending promise left the group")
        }

        /// A recursion in which every step returns the promise of the next: adopting a long chain of promises
        /// (a million steps with `PROMISES_STRESS=1`).
        @Test func longAdoptionChainCompletes() async throws {
            let depth = isStressRun ? 1_000_000 : 100_000
            let bottom = Promise<Int>.pending()
            var top = bottom
            for _ in 0..<depth {
                let inner = top
                top = Promise(0).then(on: concurrentQueue) { _ in inner }
            }
            // Let every step register its adoption, then resolve the innermost promise: the resolution climbs through
            // all the adopting promises inline, through the trampoline instead of the stack.
            #expect(!waitForPromises(timeout: 0.5) || top.isPending)
            bottom.fulfill(7)
            #expect(try await top.valueAfterWaiting() == 7)
        }

        /// 10,000 pending promises with one `then` each, resolved at once: every block runs exactly once.
        @Test func manyPendingPromisesResolvedAtOnce() async throws {
            let count = 10_000
            let runs = (0..<count).map { _ in Counter() }
            let promises = (0..<count).map { _ in Promise<Int>.pending() }
            let chained = promises.enumerated().map { index, promise in
                promise.then(on: concurrentQueue) { value in
                    runs[index].increment()
                    return value
                }
            }
            DispatchQueue.concurrentPerform(iterations: count) { index in
                promises[index].fulfill(index)
                promises[index].fulfill(-1)
            }
            #expect(try await all(on: concurrentQueue, chained).valueAfterWaiting() == Array(0..<count))
            #expect(waitForPromises(timeout: patience))
            #expect(runs.allSatisfy { $0.value == 1 })
        }

        /// Many threads race to fulfill and reject many promises; every promise has exactly one winner.
        @Test func concurrentRacesAcrossManyPromises() async throws {
            let count = isStressRun ? 20_000 : 2_000
            let promises = (0..<count).map { _ in Promise<Int>.pending() }
            let observed = (0..<count).map { _ in Counter() }
            for (index, promise) in promises.enumerated() {
                promise.then(on: concurrentQueue) { _ in observed[index].increment() }
                promise.catch(on: concurrentQueue) { _ in observed[index].increment() }
            }
            DispatchQueue.concurrentPerform(iterations: 8) { thread in
                for promise in promises {
                    if thread.isMultiple(of: 2) {
                        promise.fulfill(thread)
                    } else {
                        promise.reject(TestError(code: thread))
                    }
                }
            }
            #expect(waitForPromises(timeout: patience))
            #expect(observed.allSatisfy { $0.value == 1 })
            #expect(promises.allSatisfy { !$0.isPending })
        }
    }
}
