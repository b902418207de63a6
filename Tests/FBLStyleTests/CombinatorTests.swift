import Dispatch
import Foundation
import Testing

@testable import FBLStyle

extension FBLStyleTests {
    @Suite struct All {
        @Test func allKeepsTheOrder() async throws {
            let late = Promise<Int>.pending()
            let promises = [late, Promise(2), Promise<Int>(on: concurrentQueue) { 3 }]
            let combined = all(on: serialQueue, promises)
            late.fulfill(1)
            #expect(try await combined.valueAfterWaiting() == [1, 2, 3])
            let variadic = all(on: serialQueue, Promise(1), Promise(2), Promise(3), Promise(4), Promise(5))
            #expect(try await variadic.valueAfterWaiting() == [1, 2, 3, 4, 5])
        }

        @Test func allOfNothing() async throws {
            #expect(try await all(on: serialQueue, [Promise<Int>]()).valueAfterWaiting() == [])
        }

        @Test func allRejectsWithTheFirstError() async {
            let pending = Promise<Int>.pending()
            let combined = all(on: serialQueue, [pending, Promise<Int>(TestError(code: 1))])
            #expect(await combined.errorAfterWaiting() as? TestError == TestError(code: 1))
            pending.reject(TestError(code: 2))
            #expect(combined.error as? TestError == TestError(code: 1))
        }

        @Test func allOfMixedTypes() async throws {
            let two = try await all(on: serialQueue, Promise(1), Promise("b")).valueAfterWaiting()
            #expect(two.0 == 1 && two.1 == "b")
            let three = try await all(on: serialQueue, Promise(1), Promise("b"), Promise(3.0)).valueAfterWaiting()
            #expect(three.0 == 1 && three.1 == "b" && three.2 == 3.0)
            let four = try await all(on: serialQueue, Promise(1), Promise("b"), Promise(3.0), Promise<Int?>(nil))
                .valueAfterWaiting()
            #expect(four.0 == 1 && four.1 == "b" && four.2 == 3.0 && four.3 == nil)
            let rejected = all(on: serialQueue, Promise(1), Promise<String>(TestError(code: 4)))
            #expect(await rejected.errorAfterWaiting() as? TestError == TestError(code: 4))
        }

        @Test func inputsNobodyResolvesAreStillReleased() async {
            weak var weakInput: Promise<Int>?
            var combined: Promise<[Int]>?
            do {
                let input = Promise<Int>.pending()
                weakInput = input
                combined = all(on: serialQueue, [input])
            }
            serialQueue.sync {}  // `all` has observed its input on the queue, and let go of the list of inputs
            #expect(weakInput == nil, "all must not keep an unresolved input alive")
            #expect(combined?.isPending == true)
            combined = nil
        }
    }

    @Suite struct AnyOf {
        @Test func anyCollectsEveryOutcome() async throws {
            let outcomes = try await any(on: serialQueue, [Promise(1), Promise<Int>(TestError(code: 2)), Promise(3)])
                .valueAfterWaiting()
            #expect(outcomes == [.value(1), .error(TestError(code: 2)), .value(3)])
            #expect(outcomes[0].value == 1)
            #expect(outcomes[1].error as? TestError == TestError(code: 2))
            #expect(outcomes[1].value == nil)
            #expect(outcomes[0].error == nil)
            // One promise (or more than three of one type) selects the variadic form.
            let variadic = try await any(on: serialQueue, Promise(1)).valueAfterWaiting()
            #expect(variadic == [Maybe(1)])
        }

        /// As in Google's `any`: the observation on the queue that first finds every input settled, none fulfilled,
        /// rejects with its own input's error. Rejected one by one, with the queue running in between, that is the
        /// last one rejected; rejected while the queue was held, the one whose observation was queued first.
        @Test func anyRejectsWithTheErrorOfTheFirstObservationThatFindsAllRejected() async {
            let first = Promise<Int>.pending()
            let last = Promise<Int>.pending()
            let oneByOne = any(on: serialQueue, [first, last])
            serialQueue.sync {}  // `any` observes its inputs
            first.reject(TestError(code: 1))
            serialQueue.sync {}  // the observation of `first` finds `last` pending
            last.reject(TestError(code: 2))
            #expect(await oneByOne.errorAfterWaiting() as? TestError == TestError(code: 2))

            let firstWhileBusy = Promise<Int>.pending()
            let lastWhileBusy = Promise<Int>.pending()
            let whileBusy = any(on: serialQueue, [lastWhileBusy, firstWhileBusy])
            serialQueue.sync {}
            serialQueue.suspend()
            firstWhileBusy.reject(TestError(code: 1))
            lastWhileBusy.reject(TestError(code: 2))
            serialQueue.resume()
            #expect(await whileBusy.errorAfterWaiting() as? TestError == TestError(code: 1))
        }

        @Test func anyOfNothing() async throws {
            #expect(try await any(on: serialQueue, [Promise<Int>]()).valueAfterWaiting().isEmpty)
        }

        @Test func anyOfMixedTypes() async throws {
            let two = try await any(on: serialQueue, Promise(1), Promise<String>(TestError())).valueAfterWaiting()
            #expect(two.0 == .value(1))
            #expect(two.1.error is TestError)
            let three = try await any(on: serialQueue, Promise<Int>(TestError()), Promise("b"), Promise(3.0))
                .valueAfterWaiting()
            #expect(three.0.error is TestError && three.1 == .value("b") && three.2 == .value(3.0))
            let none = any(on: serialQueue, Promise<Int>(TestError(code: 1)), Promise<String>(TestError(code: 2)))
            #expect(await none.errorAfterWaiting() is TestError)
        }

        @Test func maybeEquality() {
            #expect(Maybe(1) == Maybe.value(1))
            #expect(Maybe(1) != Maybe(2))
            #expect(Maybe<Int>(TestError(code: 1)) == Maybe<Int>.error(TestError(code: 1)))
            // Errors compare as `NSError`s (domain and code), as in the original.
            #expect(Maybe<Int>(TestError(code: 1)) != Maybe<Int>(IdentityError()))
            #expect(Maybe<Int>(PromiseError.timedOut) != Maybe<Int>(PromiseError.validationFailure))
            #expect(Maybe<Int>(TestError()) != Maybe(1))
        }
    }

    @Suite struct Race {
        @Test func firstFulfillmentWins() async throws {
            let slow = Promise<Int>.pending()
            let winner = race(on: serialQueue, [slow, Promise<Int>(on: concurrentQueue) { 2 }])
            #expect(try await winner.valueAfterWaiting() == 2)
            slow.fulfill(1)
            #expect(winner.value == 2)
        }

        @Test func firstRejectionWins() async {
            let slow = Promise<Int>.pending()
            let winner = race(on: serialQueue, slow, Promise<Int>(TestError(code: 3)))
            #expect(await winner.errorAfterWaiting() as? TestError == TestError(code: 3))
            slow.fulfill(1)
        }

        @Test func raceOfNothingIsAProgrammingError() async {
            await #expect(processExitsWith: .failure) {
                _ = race(on: DispatchQueue.global(), [Promise<Int>]())
            }
        }
    }

    @Suite struct Retry {
        @Test func retrySucceedsAfterFailures() async throws {
            let attempts = Counter()
            let promise = retry(on: serialQueue, attempts: 5, delay: 0.001) { () -> Promise<Int> in
                #expect(onSerialQueue())
                attempts.increment()
                return attempts.value < 3 ? Promise(TestError(code: attempts.value)) : Promise(attempts.value)
            }
            #expect(try await promise.valueAfterWaiting() == 3)
            #expect(attempts.value == 3)
        }

        @Test func retryStopsAfterAttemptsWithTheLastError() async {
            let attempts = Counter()
            let remaining = Box<[Int]>([])
            let condition = { @Sendable (count: Int, _: any Error) -> Bool in
                remaining.value.append(count)
                return true
            }
            let promise = retry(on: serialQueue, attempts: 2, delay: 0.001, condition: condition) {
                () -> Promise<Int> in
                attempts.increment()
                throw TestError(code: attempts.value)
            }
            #expect(await promise.errorAfterWaiting() as? TestError == TestError(code: 3))
            #expect(attempts.value == 3, "one attempt plus two retries")
            #expect(remaining.value == [2, 1])
        }

        @Test func conditionStopsRetryingEarly() async {
            let attempts = Counter()
            let condition = { @Sendable (_: Int, error: any Error) -> Bool in (error as? TestError)?.code != 2 }
            let promise = retry(on: serialQueue, attempts: 10, delay: 0.001, condition: condition) {
                () -> Promise<Int> in
                attempts.increment()
                return Promise(TestError(code: attempts.value))
            }
            #expect(await promise.errorAfterWaiting() as? TestError == TestError(code: 2))
            #expect(attempts.value == 2)
        }

        @Test func defaultsNeedNoRetryOnSuccess() async throws {
            #expect(try await retry(on: serialQueue) { Promise(1) }.valueAfterWaiting() == 1)
        }

        @Test func zeroAttemptsRunsOnce() async {
            let attempts = Counter()
            let promise = retry(on: serialQueue, attempts: 0) { () -> Promise<Int> in
                attempts.increment()
                return Promise(TestError())
            }
            #expect(await promise.errorAfterWaiting() is TestError)
            #expect(attempts.value == 1)
        }
    }
}
