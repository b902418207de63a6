import Dispatch
import Foundation
import TestSupport
import Testing

@testable import FBLStyle

/// An error type that bridges to an Objective-C class of its own, as `String`, numbers and collections do (Google's
/// `Promise+StringTests.swift` makes `String` an `Error`): the original converts such a value to that class, here
/// `NSString`, rather than to an `NSError`, so fulfilling a promise with it fulfils.
struct BridgedError: Error, Equatable, _ObjectiveCBridgeable {
    var code: String

    func _bridgeToObjectiveC() -> NSString {
        NSString(string: code)
    }

    static func _forceBridgeFromObjectiveC(_ source: NSString, result: inout BridgedError?) {
        result = BridgedError(code: String(describing: source))
    }

    static func _conditionallyBridgeFromObjectiveC(_ source: NSString, result: inout BridgedError?) -> Bool {
        _forceBridgeFromObjectiveC(source, result: &result)
        return true
    }

    static func _unconditionallyBridgeFromObjectiveC(_ source: NSString?) -> BridgedError {
        BridgedError(code: source.map { String(describing: $0) } ?? "")
    }
}

/// A completion-handler API that reports only success or failure, as many Objective-C APIs do.
private func legacyOperation(failing: Bool, completion: @escaping ((any Error)?) -> Void) {
    nonisolated(unsafe) let completion = completion
    concurrentQueue.async { completion(failing ? TestError(code: 7) : nil) }
}

extension FBLStyleTests {
    /// Drop-in fidelity with Google Promises 2.x: each test pins one behaviour of the original that FBLStyle matches,
    /// found by running Google's own Swift tests against this module (docs: the DocC overview's "Differences from
    /// Google Promises").
    @Suite struct Compatibility {
        // MARK: Do-blocks are generic over their result

        @Test func doBlockThatOnlyThrowsRejects() async {
            let promise = Promise<Int>(on: serialQueue) { throw TestError(code: 1) }
            #expect(await promise.errorAfterWaiting() as? TestError == TestError(code: 1))
        }

        @Test func doBlockThatOnlyThrowsOnTheDefaultQueueRejects() async {
            DispatchQueue.promises = serialQueue
            defer { DispatchQueue.promises = .main }
            let promise = Promise<Int> { throw TestError(code: 2) }
            #expect(await promise.errorAfterWaiting() as? TestError == TestError(code: 2))
        }

        @Test func doBlockResultConvertsToValue() async throws {
            let promise = Promise<Any>(on: serialQueue) { 42 }
            #expect(try await promise.valueAfterWaiting() as? Int == 42)
        }

        @Test func doBlockReturnedPromiseConvertsToValue() async throws {
            let promise = Promise<Any>(on: serialQueue) { Promise<Int>(on: concurrentQueue) { 43 } }
            #expect(try await promise.valueAfterWaiting() as? Int == 43)
        }

        @Test func asyncClosureStillMakesATaskSettledPromise() async throws {
            let promise = Promise<Int> { () async throws -> Int in
                await Task.yield()
                return 44
            }
            #expect(promise.pendingOperationTask != nil || !promise.isPending)
            #expect(try await promise.valueAfterWaiting() == 44)
        }

        // MARK: A value that is an error rejects

        @Test func fulfillingWithAnErrorRejects() async {
            let promise = Promise<Any>.pending()
            promise.fulfill(TestError(code: 3))
            #expect(promise.isRejected)
            #expect(promise.value == nil)
            #expect(promise.error as? TestError == TestError(code: 3))
        }

        @Test func errorAsAnyObjectRejects() async {
            let promise = Promise<AnyObject>(on: serialQueue) { TestError(code: 4) as AnyObject }
            #expect(await promise.errorAfterWaiting() as? TestError == TestError(code: 4))
        }

        @Test func thenBlockReturningAnErrorRejects() async {
            let promise = Promise(1).then(on: serialQueue) { _ in TestError(code: 5) }
            #expect(await promise.errorAfterWaiting() as? TestError == TestError(code: 5))
        }

        @Test func promiseOfAnErrorWithoutTypeAnnotationRejects() {
            let promise = Promise(TestError(code: 6))
            #expect(type(of: promise) == Promise<TestError>.self)
            #expect(promise.isRejected)
            #expect(promise.error as? TestError == TestError(code: 6))
        }

        @Test func wrapOfAnErrorCompletionRejectsOnFailure() async {
            let promise = wrap(on: serialQueue) { legacyOperation(failing: true, completion: $0) }
            #expect(await promise.errorAfterWaiting() as? TestError == TestError(code: 7))
        }

        @Test func wrapOfAnErrorCompletionFulfilsOnSuccess() async throws {
            let promise = wrap(on: serialQueue) { legacyOperation(failing: false, completion: $0) }
            _ = try await promise.valueAfterWaiting()
            #expect(promise.isFulfilled)
            #expect(promise.value == nil)
        }

        @Test func optionalHoldingAnErrorRejects() {
            let promise = Promise<(any Error)?>.pending()
            promise.fulfill(TestError(code: 8))
            #expect(promise.error as? TestError == TestError(code: 8))
            let inAny = Promise<Any>.pending()
            inAny.fulfill(TestError?.some(TestError(code: 10)) as Any)
            #expect(inAny.error as? TestError == TestError(code: 10))
        }

        @Test func nsErrorValueRejects() {
            let error = NSError(domain: "FBLStyleTests", code: 9)
            let promise = Promise<NSError>.pending()
            promise.fulfill(error)
            #expect(promise.isRejected)
            #expect(promise.error.map { $0 as AnyObject } === error)
        }

        @Test func errorClassThatIsNoNSErrorFulfils() {
            // The original hands a class instance to its Objective-C core as it is, and only an `NSError` rejects.
            let error = IdentityError()
            let promise = Promise<IdentityError>.pending()
            promise.fulfill(error)
            #expect(promise.isFulfilled)
            #expect(promise.value === error)
        }

        @Test func errorTypeBridgedToAnotherClassFulfils() {
            let promise = Promise<BridgedError>.pending()
            promise.fulfill(BridgedError(code: "8"))
            #expect(promise.isFulfilled)
            #expect(promise.value == BridgedError(code: "8"))
            let inAny = Promise<Any>.pending()
            inAny.fulfill(BridgedError(code: "9"))
            #expect(inAny.value as? BridgedError == BridgedError(code: "9"))
        }

        @Test func valuesThatAreNoErrorsFulfil() {
            // One promise per kind of type `fulfilment(with:)` and its per-type cache tell apart.
            #expect(Promise<Int>(1).value == 1)
            #expect(Promise<[Int]>([2]).value == [2])
            #expect(Promise<Int?>(3).value == 3)
            #expect(Promise<Any>(4).value as? Int == 4)
            #expect(Promise<TestError?>(nil).isFulfilled)
            #expect(Promise<(Int, String)>((5, "five")).value?.1 == "five")
        }

        // MARK: A nil fulfilment reads as a nil value

        @Test func nilFulfilmentOfAnOptionalReadsAsNil() {
            let promise = Promise<Int?>.pending()
            promise.fulfill(nil)
            #expect(promise.isFulfilled)
            if let value = promise.value {
                Issue.record("expected no value, got \(String(describing: value))")
            }
        }

        @Test func nestedAndErasedNilFulfilmentsReadAsNil() {
            #expect(Promise<Int??>(.some(nil)).value == nil)
            #expect(Promise<Any>(Int?.none as Any).value == nil)
            #expect(Promise<Any?>(nil).value == nil)
        }

        @Test func wrapOfAVoidCompletionReadsAsNil() async throws {
            let promise = wrap(on: serialQueue) { (done: @escaping () -> Void) in
                nonisolated(unsafe) let done = done
                concurrentQueue.async { done() }
            }
            _ = try await promise.valueAfterWaiting()
            #expect(promise.isFulfilled)
            #expect(promise.value == nil)
        }

        @Test func blocksStillReceiveTheNilTheyWereFulfilledWith() async throws {
            let seen = try await Promise<Int?>(nil).then(on: serialQueue) { value in value == nil }.valueAfterWaiting()
            #expect(seen)
        }

        // MARK: Where the value can hold an object, blocks receive a nil as NSNull

        /// Google's `testPromiseWhenNilBridgesToNSNullInThenChain`: the block of a `then` on a `Promise<Any?>`
        /// fulfilled with `nil` receives `NSNull()`, and the promise that `then` returns holds it.
        @Test func thenBlocksReceiveANilAsNSNullWhenTheValueCanHoldOne() async throws {
            let passedOn = Promise<Any?>(nil).then(on: serialQueue) { value in
                #expect(value is NSNull)
            }
            _ = try await passedOn.valueAfterWaiting()
            #expect(passedOn.value is NSNull)
            let mapped = try await Promise<Any?>(nil).then(on: serialQueue) { value in value is NSNull }
                .valueAfterWaiting()
            #expect(mapped)
            let chained = try await Promise<Any>(Int?.none as Any).then(on: serialQueue) { value in
                Promise<Bool>(value is NSNull)
            }.valueAfterWaiting()
            #expect(chained)
        }

        /// Only the blocks and readers listed in `BridgedNil.swift` convert: a `catch` passes the `nil` on as it is,
        /// so `value` reads it as `nil` (Google's `testPromiseWrapVoidCompletionFulfillsWithNilValue`).
        @Test func passThroughWithoutABlockKeepsTheNil() async throws {
            let caught = Promise<Any?>(nil).catch(on: serialQueue) { _ in }
            _ = try await caught.valueAfterWaiting()
            #expect(caught.value == nil)
        }

        @Test func validateAwaitAllAndAnySeeANilAsNSNull() async throws {
            let validated = Promise<Any?>(nil).validate(on: serialQueue) { value in value is NSNull }
            _ = try await validated.valueAfterWaiting()
            #expect(validated.isFulfilled)
            #expect(validated.value == nil, "validate passes the stored nil on")
            let pair = try await all(on: serialQueue, Promise<Any?>(nil), Promise<Int?>(nil)).valueAfterWaiting()
            #expect(pair.0 is NSNull)
            #expect(pair.1 == nil)
            let maybes = try await any(on: serialQueue, [Promise<Any?>(nil)]).valueAfterWaiting()
            #expect(maybes.first?.value is NSNull)
            // Settled already, so `awaitPromise` returns without blocking.
            let awaited = try await Task.detached { try awaitPromise(Promise<Any?>(nil)) is NSNull }.value
            #expect(awaited)
        }

        /// A class that is no `NSObject` cannot hold an `NSNull`: its blocks receive the `nil`.
        @Test func optionalOfAPlainClassKeepsTheNil() async throws {
            final class Plain {}
            let seen = try await Promise<Plain?>(nil).then(on: serialQueue) { value in value == nil }
                .valueAfterWaiting()
            #expect(seen)
        }

        // MARK: timeout and delay observe the promise on their queue

        /// Google's `onQueue:timeout:` observes the promise on its queue: the promise it returns takes the resolution
        /// in a block there, not on the thread that resolves the source. The queue is held while the source is
        /// fulfilled, so the block cannot have run yet when the test looks.
        @Test func timeoutTakesTheResolutionInABlockOnItsQueue() async throws {
            let queue = DispatchQueue(label: "Compatibility.timeout")
            let source = Promise<Int>.pending()
            let promise = source.timeout(on: queue, 10 * patience)
            queue.suspend()
            source.fulfill(5)
            #expect(promise.isPending, "the block on the held queue has not run")
            queue.resume()
            #expect(try await promise.valueAfterWaiting() == 5)
        }

        /// `n0=pending; n1=timeout n0 m; n2=then n1 m; n3=then n0 m; fulfill n0`: n0's own block runs before n1's
        /// handler, which waits for the block on `m` that passes the value to n1. The queue is held while `n0` is
        /// fulfilled, so that both of `n0`'s blocks are on it before either runs.
        @Test func aTimeoutsHandlerRunsAfterTheSourcesOwnBlockOnTheSameQueue() async throws {
            let queue = DispatchQueue(label: "Compatibility.timeout-order")
            let source = Promise<Int>.pending()
            let log = Locked<[String]>([])
            let timedHandler = source.timeout(on: queue, 10 * patience).then(on: queue) { _ in
                log.withLock { $0.append("timeout's handler") }
            }
            let ownHandler = source.then(on: queue) { _ in log.withLock { $0.append("source's handler") } }
            queue.suspend()
            source.fulfill(1)
            queue.resume()
            _ = try await timedHandler.valueAfterWaiting()
            _ = try await ownHandler.valueAfterWaiting()
            #expect(log.withLock { $0 } == ["source's handler", "timeout's handler"])
        }

        /// Google's `onQueue:delay:` observes the promise on its queue too, and a rejection is passed on by that block,
        /// without the delay.
        @Test func delayPassesARejectionOnInABlockOnItsQueue() async {
            let queue = DispatchQueue(label: "Compatibility.delay")
            let source = Promise<Int>.pending()
            let promise = source.delay(on: queue, 10 * patience)
            queue.suspend()
            source.reject(TestError(code: 2))
            #expect(promise.isPending, "the block on the held queue has not run")
            queue.resume()
            #expect(await promise.errorAfterWaiting() as? TestError == TestError(code: 2))
        }
    }
}
