import Dispatch
import Foundation
import TestSupport
import Testing

@testable import FBLStyle

extension FBLStyleTests {
    @Suite struct Core {
        @Test func pendingPromiseIsPending() {
            let promise = Promise<Int>.pending()
            #expect(promise.isPending)
            #expect(!promise.isFulfilled)
            #expect(!promise.isRejected)
            #expect(promise.value == nil)
            #expect(promise.error == nil)
            #expect(Promise<Int>().isPending)
            promise.fulfill(0)
        }

        @Test func fulfillSetsTheValue() {
            let promise = Promise<Int>.pending()
            promise.fulfill(42)
            #expect(promise.isFulfilled)
            #expect(!promise.isPending)
            #expect(promise.value == 42)
            #expect(promise.error == nil)
        }

        @Test func rejectSetsTheError() {
            let promise = Promise<Int>.pending()
            promise.reject(TestError(code: 7))
            #expect(promise.isRejected)
            #expect(promise.value == nil)
            #expect(promise.error as? TestError == TestError(code: 7))
        }

        @Test func resolvingTwiceChangesNothing() {
            let fulfilled = Promise<Int>.pending()
            fulfilled.fulfill(1)
            fulfilled.fulfill(2)
            fulfilled.reject(TestError())
            #expect(fulfilled.value == 1)
            let rejected = Promise<Int>.pending()
            rejected.reject(TestError(code: 1))
            rejected.fulfill(2)
            rejected.reject(TestError(code: 2))
            #expect(rejected.error as? TestError == TestError(code: 1))
        }

        @Test func resolvedInitializers() {
            #expect(Promise(42).value == 42)
            #expect(Promise<Int>(TestError()).error is TestError)
            func load(_ fail: Bool) throws -> String {
                if fail { throw TestError(code: 3) }
                return "loaded"
            }
            #expect(Promise(try load(false)).value == "loaded")
            #expect(Promise(try load(true)).error as? TestError == TestError(code: 3))
            let optional = Promise<Int?>(nil)
            #expect(optional.isFulfilled)
            #expect(optional.value == nil)  // flattened, as in the original
        }

        @Test func descriptionShowsTheState() {
            #expect(Promise(5).description == "Fulfilled: 5")
            #expect(Promise<Int>(TestError(code: 2)).description == "Rejected: TestError(code: 2)")
            let pending = Promise<Int>.pending()
            #expect(pending.description == "Pending: Int")
            pending.fulfill(0)
        }

        @Test func blocksRunOnTheirQueue() async throws {
            let onQueue = try await Promise(1).then(on: serialQueue) { _ in onSerialQueue() }.valueAfterWaiting()
            #expect(onQueue)
        }

        @Test func blocksNeverRunInsideTheRegisteringCall() async throws {
            let queue = DispatchQueue(label: "suspended")
            queue.suspend()
            let ran = Box(false)
            let resolved = Promise(1)
            let chained = resolved.then(on: queue) { _ in ran.value = true }
            #expect(!ran.value)
            let pending = Promise<Int>.pending()
            let chainedOnPending = pending.then(on: queue) { _ in ran.value = true }
            pending.fulfill(2)
            #expect(!ran.value, "fulfill must not run blocks inline")
            queue.resume()
            #expect(try await chained.valueAfterWaiting() == 1)
            #expect(try await chainedOnPending.valueAfterWaiting() == 2)
            #expect(ran.value)
        }

        @Test func observersRunInRegistrationOrder() async throws {
            let promise = Promise<Int>.pending()
            let order = Box<[Int]>([])
            var last: Promise<Int> = promise
            for index in 0..<100 {
                last = promise.then(on: serialQueue) { _ in order.value.append(index) }
            }
            promise.fulfill(0)
            _ = try await last.valueAfterWaiting()
            #expect(order.value == Array(0..<100))
        }

        @Test(.offThePool) func concurrentResolutionHasExactlyOneWinner() async throws {
            let rounds = isStressRun ? 2_000 : 200
            for round in 0..<rounds {
                let promise = Promise<Int>.pending()
                let observed = Counter()
                promise.then(on: concurrentQueue) { _ in observed.increment() }
                promise.catch(on: concurrentQueue) { _ in observed.increment() }
                DispatchQueue.concurrentPerform(iterations: 8) { thread in
                    if thread.isMultiple(of: 2) {
                        promise.fulfill(thread)
                    } else {
                        promise.reject(TestError(code: thread))
                    }
                }
                let outcome = await promise.outcome()
                // Everyone sees the same single resolution.
                switch outcome {
                case .success(let value):
                    #expect(value.isMultiple(of: 2))
                    #expect(promise.value == value)
                case .failure(let error):
                    #expect((error as? TestError)?.code.isMultiple(of: 2) == false)
                    #expect(promise.error as? TestError == error as? TestError)
                }
                _ = await promise.always(on: concurrentQueue) {}.outcome()
                #expect(waitForPromises(timeout: patience), "round \(round)")
                #expect(observed.value == 1, "round \(round): exactly one of then/catch runs")
            }
        }

        @Test(.offThePool) func manyObserversOnOnePromise() async throws {
            let promise = Promise<Int>.pending()
            let counter = Counter()
            let chained = (0..<1_000).map { _ in promise.then(on: concurrentQueue) { _ in counter.increment() } }
            promise.fulfill(1)
            let values = try await all(on: concurrentQueue, chained).valueAfterWaiting()
            #expect(values.count == 1_000)
            #expect(counter.value == 1_000)
        }
    }
}
