import Dispatch
import PromiseKitStyle
import TestSupport
import Testing

/// A value that is deliberately not Sendable, to check `async()` from an actor with a non-Sendable `T`.
final class NonSendableBox {
    var count = 0
}

/// An actor of our own (not the main actor, which needs the main queue served).
actor Counterpart {
    var seen = 0

    func take(_ promise: Promise<NonSendableBox>) async throws -> Int {
        let box = try await promise.async()  // stays on this actor: `async()` is nonisolated(nonsending)
        box.count += 1
        seen = box.count
        return seen
    }

    func take(_ guarantee: Guarantee<NonSendableBox>) async -> Int {
        await guarantee.async().count
    }
}

@Suite("Swift concurrency bridge")
struct AsyncTests {
    @Test func asyncReturnsTheValueOrThrows() async throws {
        let (promise, resolver) = Promise<Int>.pending()
        concurrentQueue.asyncAfter(deadline: .now() + 0.01) { resolver.fulfill(3) }
        #expect(try await promise.async() == 3)
        #expect(try await Promise.value(4).async() == 4)
        await #expect(throws: TestError.self) { try await Promise<Int>(error: TestError()).async() }
        let (guarantee, resolve) = Guarantee<Int>.pending()
        concurrentQueue.async { resolve(5) }
        #expect(await guarantee.async() == 5)
    }

    @Test func asyncWorksFromAnActorWithANonSendableValue() async throws {
        let box = NonSendableBox()
        box.count = 7
        let actor = Counterpart()
        #expect(try await actor.take(Promise.value(box)) == 8)
        let (pending, resolver) = Promise<NonSendableBox>.pending()
        concurrentQueue.async { resolver.fulfill(NonSendableBox()) }
        #expect(try await actor.take(pending) == 1)
        let other = NonSendableBox()  // `box` went to the actor above (a non-Sendable value is sent, not shared)
        other.count = 8
        #expect(await actor.take(Guarantee.value(other)) == 8)
    }

    @Test func asyncResumesWithoutTheMainQueue() async throws {
        // Resolve from a background queue; `async()` must resume directly, not through conf.Q (the main queue).
        let (promise, resolver) = Promise<Int>.pending()
        DispatchQueue.global().async { resolver.fulfill(1) }
        #expect(try await promise.async() == 1)
    }

    @Test func promiseFromAnAsyncClosure() async throws {
        let promise = Promise<Int> { () async throws -> Int in 8 }
        #expect(try await promise.async() == 8)
        let failing = Promise<Int>(priority: .low) { () async throws -> Int in throw TestError(code: 2) }
        do {
            _ = try await failing.async()
            Issue.record("expected TestError")
        } catch let error as TestError {
            #expect(error == TestError(code: 2))  // the same instance passes through
        }
        let value = try await Promise<Int> { () async throws -> Int in 9 }.map(on: testQueue) { $0 + 1 }.async()
        #expect(value == 10)
    }

    @Test func cancellationErrorBecomesPMKErrorCancelled() async throws {
        let promise = Promise<Int> { () async throws -> Int in throw CancellationError() }
        do {
            _ = try await promise.async()
            Issue.record("expected PMKError.cancelled")
        } catch PMKError.cancelled {}
        #expect(promise.error?.isCancelled == true)
    }

    @Test func guaranteeFromAnAsyncClosure() async {
        let guarantee = Guarantee<Int>(priority: .medium) { () async -> Int in 11 }
        #expect(await guarantee.async() == 11)
        #expect(await Guarantee<Int> { () async -> Int in 12 }.map(on: testQueue) { $0 * 2 }.async() == 24)
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // Task.sleep(for:)
    @Test(.offThePool) func cancellingTheAwaiterCancelsTheOperation() async throws {
        let started = DispatchSemaphore(value: 0)
        let promise = Promise<Int> { () async throws -> Int in
            started.signal()
            try await Task.sleep(for: .seconds(60))
            return 1
        }
        let awaiter = Task { try await promise.async() }
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                started.wait()
                continuation.resume()
            }
        }
        awaiter.cancel()
        do {
            _ = try await awaiter.value
            Issue.record("expected cancellation")
        } catch PMKError.cancelled {}
        #expect(promise.error?.isCancelled == true)
    }

    @Test func cancellingTheAwaiterOfAGuaranteeCancelsItsOperation() async {
        let guarantee = Guarantee<Bool> { () async -> Bool in
            while !Task.isCancelled { await Task.yield() }
            return true
        }
        let awaiter = Task { await guarantee.async() }
        awaiter.cancel()
        #expect(await awaiter.value == true)
    }

    @Test func cancellingTheAwaiterOfAPlainPromiseKeepsWaiting() async throws {
        let (promise, resolver) = Promise<Int>.pending()
        let awaiter = Task { try await promise.async() }
        awaiter.cancel()
        resolver.fulfill(2)
        #expect(try await awaiter.value == 2)
        let (guarantee, resolve) = Guarantee<Int>.pending()
        let guaranteeAwaiter = Task { await guarantee.async() }
        guaranteeAwaiter.cancel()
        resolve(3)
        #expect(await guaranteeAwaiter.value == 3)
    }
}
