import Dispatch
import Foundation
import Testing

@testable import FBLStyle

extension FBLStyleTests {
    @Suite struct Then {
        @Test func valueReturningBlock() async throws {
            let promise = Promise(20).then(on: serialQueue) { $0 + 1 }.then(on: serialQueue) { "\($0 * 2)" }
            #expect(try await promise.valueAfterWaiting() == "42")
        }

        @Test func promiseReturningBlockAdoptsThePromise() async throws {
            let inner = Promise<String>.pending()
            let chained = Promise(1).then(on: serialQueue) { _ in inner }
            serialQueue.asyncAfter(deadline: .now() + 0.01) { inner.fulfill("later") }
            #expect(try await chained.valueAfterWaiting() == "later")
            let rejectedInner = Promise(1).then(on: serialQueue) { _ in Promise<Int>(TestError(code: 4)) }
            #expect(await rejectedInner.errorAfterWaiting() as? TestError == TestError(code: 4))
        }

        @Test func voidBlockPassesTheValueOn() async throws {
            let seen = Box(0)
            let promise = Promise(9).then(on: serialQueue) { value in seen.value = value }
            #expect(try await promise.valueAfterWaiting() == 9)
            #expect(seen.value == 9)
        }

        @Test func throwingBlocksReject() async {
            let value = Promise(1).then(on: serialQueue) { _ -> Int in throw TestError(code: 1) }
            #expect(await value.errorAfterWaiting() as? TestError == TestError(code: 1))
            let void = Promise(1).then(on: serialQueue) { _ in throw TestError(code: 2) }
            #expect(await void.errorAfterWaiting() as? TestError == TestError(code: 2))
            let promise = Promise(1).then(on: serialQueue) { _ -> Promise<Int> in throw TestError(code: 3) }
            #expect(await promise.errorAfterWaiting() as? TestError == TestError(code: 3))
        }

        @Test func rejectionSkipsEveryThen() async {
            let ran = Counter()
            let error = IdentityError()
            let promise = Promise<Int>(error)
                .then(on: serialQueue) { _ in ran.increment() }
                .then(on: serialQueue) { _ -> Int in
                    ran.increment()
                    return 1
                }
                .then(on: serialQueue) { _ -> Promise<Int> in
                    ran.increment()
                    return Promise(1)
                }
            #expect(await promise.errorAfterWaiting() as? IdentityError === error)
            #expect(ran.value == 0)
        }
    }

    @Suite struct Catch {
        @Test func catchRunsOnRejectionAndPassesItOn() async {
            let caught = Box<(any Error)?>(nil)
            let promise = Promise<Int>(TestError(code: 5)).catch(on: serialQueue) { error in
                #expect(onSerialQueue())
                caught.value = error
            }
            #expect(await promise.errorAfterWaiting() as? TestError == TestError(code: 5))
            #expect(caught.value as? TestError == TestError(code: 5))
        }

        @Test func catchSkipsFulfillment() async throws {
            let ran = Counter()
            let promise = Promise(3).catch(on: serialQueue) { _ in ran.increment() }
            #expect(try await promise.valueAfterWaiting() == 3)
            #expect(ran.value == 0)
        }
    }

    @Suite struct Always {
        @Test func alwaysRunsForBothOutcomes() async throws {
            let ran = Counter()
            let fulfilled = Promise(1).always(on: serialQueue) {
                #expect(onSerialQueue())
                ran.increment()
            }
            let rejected = Promise<Int>(TestError()).always(on: serialQueue) { ran.increment() }
            #expect(try await fulfilled.valueAfterWaiting() == 1)
            #expect(await rejected.errorAfterWaiting() is TestError)
            #expect(ran.value == 2)
        }
    }

    @Suite struct Recover {
        @Test func recoverWithAValue() async throws {
            let promise = Promise<Int>(TestError(code: 1)).recover(on: serialQueue) { error -> Int in
                (error as? TestError)?.code ?? -1
            }
            #expect(try await promise.valueAfterWaiting() == 1)
        }

        @Test func recoverWithAPromise() async throws {
            let promise = Promise<Int>(TestError()).recover(on: serialQueue) { _ in
                Promise<Int>(on: concurrentQueue) { 8 }
            }
            #expect(try await promise.valueAfterWaiting() == 8)
        }

        @Test func recoverSkipsFulfillment() async throws {
            let ran = Counter()
            let promise = Promise(2).recover(on: serialQueue) { _ -> Int in
                ran.increment()
                return 0
            }
            #expect(try await promise.valueAfterWaiting() == 2)
            #expect(ran.value == 0)
        }

        @Test func throwingRecoveryRejects() async {
            let value = Promise<Int>(TestError(code: 1)).recover(on: serialQueue) { _ -> Int in
                throw TestError(code: 2)
            }
            #expect(await value.errorAfterWaiting() as? TestError == TestError(code: 2))
            let promise = Promise<Int>(TestError(code: 1)).recover(on: serialQueue) { _ -> Promise<Int> in
                throw TestError(code: 3)
            }
            #expect(await promise.errorAfterWaiting() as? TestError == TestError(code: 3))
        }
    }

    @Suite struct Timeout {
        @Test func timeoutRejectsWhenTheSourceIsLate() async {
            let source = Promise<Int>.pending()
            let promise = source.timeout(on: serialQueue, 0.01)
            #expect(await promise.errorAfterWaiting() as? PromiseError == .timedOut)
            source.fulfill(1)
            #expect(promise.error as? PromiseError == .timedOut, "a late source changes nothing")
        }

        @Test func timeoutPassesAnEarlyResolutionOn() async throws {
            #expect(try await Promise(4).timeout(on: serialQueue, patience).valueAfterWaiting() == 4)
            let rejected = Promise<Int>(TestError(code: 9)).timeout(on: serialQueue, patience)
            #expect(await rejected.errorAfterWaiting() as? TestError == TestError(code: 9))
        }
    }

    @Suite struct Delay {
        @Test func delayPostponesFulfillment() async throws {
            let start = DispatchTime.now()
            let value = try await Promise(6).delay(on: serialQueue, 0.05).valueAfterWaiting()
            #expect(value == 6)
            #expect(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds >= 50_000_000)
        }

        @Test func delayPassesRejectionOnWithoutTheDelay() async {
            // With a delay far beyond the test's patience, only a rejection passed on without it can arrive in time.
            let promise = Promise<Int>(TestError(code: 2)).delay(on: serialQueue, 10 * patience)
            #expect(await promise.errorAfterWaiting() as? TestError == TestError(code: 2))
        }
    }

    @Suite struct Validate {
        @Test func validatePassesOrRejects() async throws {
            let passed = Promise(10).validate(on: serialQueue) { value in
                #expect(onSerialQueue())
                return value > 5
            }
            #expect(try await passed.valueAfterWaiting() == 10)
            let failed = Promise(1).validate(on: serialQueue) { $0 > 5 }
            #expect(await failed.errorAfterWaiting() as? PromiseError == .validationFailure)
        }

        @Test func validateSkipsRejection() async {
            let ran = Counter()
            let promise = Promise<Int>(TestError(code: 3)).validate(on: serialQueue) { _ in
                ran.increment()
                return true
            }
            #expect(await promise.errorAfterWaiting() as? TestError == TestError(code: 3))
            #expect(ran.value == 0)
        }
    }

    @Suite struct Reduce {
        @Test func reduceVariadic() async throws {
            let promise = Promise("").reduce(on: serialQueue, 1, 2, 3) { partial, next in
                Promise(partial + "\(next)")
            }
            #expect(try await promise.valueAfterWaiting() == "123")
        }

        @Test func reduceSequence() async throws {
            let promise = Promise(0).reduce(on: serialQueue, 1...100) { sum, next in
                #expect(onSerialQueue())
                return Promise<Int>(on: concurrentQueue) { sum + next }
            }
            #expect(try await promise.valueAfterWaiting() == 5050)
        }

        @Test func reduceOfNothingIsSelf() {
            let start = Promise(1)
            #expect(start.reduce(on: serialQueue, [Int]()) { _, _ in Promise(2) } === start)
        }

        @Test func reduceStopsAtRejection() async {
            let calls = Counter()
            let promise = Promise(0).reduce(on: serialQueue, [1, 2, 3]) { _, next -> Promise<Int> in
                calls.increment()
                if next == 2 { throw TestError(code: next) }
                return Promise(next)
            }
            #expect(await promise.errorAfterWaiting() as? TestError == TestError(code: 2))
            #expect(calls.value == 2)
        }
    }
}
