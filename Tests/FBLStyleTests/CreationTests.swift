import Dispatch
import Foundation
import Testing

@testable import FBLStyle

extension FBLStyleTests {
    @Suite struct Creation {
        @Test func doFormRunsWorkOnTheQueue() async throws {
            let promise = Promise<Bool>(on: serialQueue) { onSerialQueue() }
            #expect(try await promise.valueAfterWaiting())
            let failing = Promise<Int>(on: serialQueue) { throw TestError(code: 1) }
            #expect(await failing.errorAfterWaiting() as? TestError == TestError(code: 1))
        }

        @Test func doFormAdoptsAReturnedPromise() async throws {
            let promise = Promise<Int>(on: serialQueue) { () -> Promise<Int> in Promise(on: concurrentQueue) { 5 } }
            #expect(try await promise.valueAfterWaiting() == 5)
            let failing = Promise<Int>(on: serialQueue) { () -> Promise<Int> in throw TestError(code: 2) }
            #expect(await failing.errorAfterWaiting() as? TestError == TestError(code: 2))
        }

        @Test func doFormWorkIsAsynchronous() async throws {
            let queue = DispatchQueue(label: "suspended")
            queue.suspend()
            let promise = Promise<Int>(on: queue) { 1 }
            #expect(promise.isPending)
            queue.resume()
            #expect(try await promise.valueAfterWaiting() == 1)
        }

        @Test func asyncFormFulfillsLaterFromAnotherThread() async throws {
            let promise = Promise<String>(on: serialQueue) { fulfill, _ in
                #expect(onSerialQueue())
                nonisolated(unsafe) let fulfill: (String) -> Void = fulfill  // `@Sendable` under CheckedHandlers
                concurrentQueue.asyncAfter(deadline: .now() + 0.01) { fulfill("done") }
            }
            #expect(try await promise.valueAfterWaiting() == "done")
        }

        @Test func asyncFormRejectsOrThrows() async {
            let rejected = Promise<Int>(on: serialQueue) { _, reject in reject(TestError(code: 1)) }
            #expect(await rejected.errorAfterWaiting() as? TestError == TestError(code: 1))
            let thrown = Promise<Int>(on: serialQueue) { _, _ in throw TestError(code: 2) }
            #expect(await thrown.errorAfterWaiting() as? TestError == TestError(code: 2))
        }

        @Test func asyncFormOnlyFirstCallCounts() async throws {
            let promise = Promise<Int>(on: serialQueue) { fulfill, reject in
                fulfill(1)
                reject(TestError())
                fulfill(2)
            }
            #expect(try await promise.valueAfterWaiting() == 1)
        }
    }

    @Suite struct Wrap {
        @Test func noArgumentHandler() async throws {
            let value = try await wrap(on: serialQueue) { handler in handler() }.valueAfterWaiting()
            #expect(value == nil)
        }

        @Test func valueHandler() async throws {
            #expect(try await wrap(on: serialQueue) { (handler: (Int) -> Void) in handler(1) }.valueAfterWaiting() == 1)
            let optional = wrap(on: serialQueue) { (handler: (Int?) -> Void) in handler(nil) }
            #expect(try await optional.valueAfterWaiting() == nil)
        }

        @Test func valueAndErrorHandlers() async throws {
            let ok = wrap(on: serialQueue) { (handler: (Int, (any Error)?) -> Void) in handler(2, nil) }
            #expect(try await ok.valueAfterWaiting() == 2)
            let failed = wrap(on: serialQueue) { (handler: (Int, (any Error)?) -> Void) in handler(2, TestError()) }
            #expect(await failed.errorAfterWaiting() is TestError)
        }

        @Test func errorAndValueHandlers() async throws {
            let ok = wrap(on: serialQueue) { (handler: ((any Error)?, Int) -> Void) in handler(nil, 3) }
            #expect(try await ok.valueAfterWaiting() == 3)
            let failed = wrap(on: serialQueue) { (handler: ((any Error)?, Int) -> Void) in handler(TestError(), 3) }
            #expect(await failed.errorAfterWaiting() is TestError)
        }

        @Test func optionalValueAndErrorHandlers() async throws {
            let ok = wrap(on: serialQueue) { (handler: (Int?, (any Error)?) -> Void) in handler(4, nil) }
            #expect(try await ok.valueAfterWaiting() == 4)
            let failed = wrap(on: serialQueue) { (handler: (Int?, (any Error)?) -> Void) in handler(nil, TestError()) }
            #expect(await failed.errorAfterWaiting() is TestError)
            let reversed = wrap(on: serialQueue) { (handler: ((any Error)?, Int?) -> Void) in handler(nil, 5) }
            #expect(try await reversed.valueAfterWaiting() == 5)
            let reversedFailed = wrap(on: serialQueue) { (handler: ((any Error)?, Int?) -> Void) in
                handler(TestError(), nil)
            }
            #expect(await reversedFailed.errorAfterWaiting() is TestError)
        }

        @Test func twoValuesAndErrorHandler() async throws {
            let ok = wrap(on: serialQueue) { (handler: (Int?, String?, (any Error)?) -> Void) in handler(1, "a", nil) }
            let values = try await ok.valueAfterWaiting()
            #expect(values.0 == 1)
            #expect(values.1 == "a")
            let failed = wrap(on: serialQueue) { (handler: (Int?, String?, (any Error)?) -> Void) in
                handler(nil, nil, TestError())
            }
            #expect(await failed.errorAfterWaiting() is TestError)
        }

        @Test func throwingWorkRejects() async {
            let promise = wrap(on: serialQueue) { (_: (Int) -> Void) in throw TestError(code: 8) }
            #expect(await promise.errorAfterWaiting() as? TestError == TestError(code: 8))
        }
    }

    @Suite struct DefaultQueue {
        @Test func defaultQueueIsMainAndSettable() async throws {
            // `DispatchQueue.main` may hand out a new wrapper object for the same queue, so compare labels.
            #expect(DispatchQueue.promises.label == DispatchQueue.main.label)
            DispatchQueue.promises = serialQueue
            defer { DispatchQueue.promises = .main }
            #expect(DispatchQueue.promises === serialQueue)
            let promise = Promise(1).then { _ in onSerialQueue() }
            let created = Promise<Bool> { onSerialQueue() }
            #expect(try await promise.valueAfterWaiting())
            #expect(try await created.valueAfterWaiting())
        }
    }

    @Suite struct Errors {
        @Test func promiseErrorMatchesTheOriginalDomainAndCodes() {
            #expect(PromiseError.errorDomain == "com.google.FBLPromiseErrorDomain")
            #expect(PromiseError.timedOut.errorCode == 1)
            #expect(PromiseError.validationFailure.errorCode == 2)
            #expect(PromiseError.timedOut.errorUserInfo.isEmpty)
            let bridged = PromiseError.validationFailure as NSError
            #expect(bridged.domain == PromiseError.errorDomain)
            #expect(PromiseError(bridged) == .validationFailure)
            #expect(PromiseError(NSError(domain: PromiseError.errorDomain, code: 1)) == .timedOut)
            #expect(PromiseError(PromiseError.timedOut) == .timedOut)
            #expect(PromiseError(NSError(domain: PromiseError.errorDomain, code: 99)) == nil)
            #expect(PromiseError(TestError()) == nil)
        }
    }
}
