import Dispatch
import Foundation
import TestSupport
import Testing

@testable import FBLStyle

extension FBLStyleTests {
    /// Tests of the global group. They run serialized with every other test of the module (see `FBLStyleTests`), so
    /// the only promises alive are the ones they create.
    @Suite struct GlobalGroup {
        @Test func groupIsPublicAndShared() {
            #expect(DispatchGroup.promises === DispatchGroup.promises)
        }

        @Test(.offThePool) func waitForPromisesWaitsForChainedBlocks() {
            let ran = Counter()
            Promise<Int>(on: concurrentQueue) { 1 }
                .then(on: serialQueue) { _ in ran.increment() }
                .delay(on: concurrentQueue, 0.02)
                .then(on: serialQueue) { _ in ran.increment() }
            #expect(waitForPromises(timeout: patience))
            #expect(ran.value == 2)
        }

        @Test(.offThePool) func waitForPromisesTimesOutWhilePending() {
            let pending = Promise<Int>.pending()
            #expect(!waitForPromises(timeout: 0.05))
            pending.fulfill(1)
            #expect(waitForPromises(timeout: patience))
        }

        @Test(.offThePool) func waitForPromisesWaitsForABlockInFlight() {
            let release = DispatchSemaphore(value: 0)
            Promise(1).then(on: concurrentQueue) { _ in _ = wait(release) }
            #expect(!waitForPromises(timeout: 0.05), "a queued or running block keeps the group entered")
            release.signal()
            #expect(waitForPromises(timeout: patience))
        }

        @Test(.offThePool) func deallocatedPendingPromiseLeavesTheGroup() {
            weak var weakPromise: Promise<Int>?
            do {
                let pending = Promise<Int>.pending()
                pending.then(on: serialQueue) { _ in Issue.record("never resolved") }
                weakPromise = pending
            }
            #expect(weakPromise == nil)
            #expect(waitForPromises(timeout: patience))
        }

        @Test(.offThePool) func timeoutTimerKeepsNothingAlive() {
            weak var weakTimeout: Promise<Int>?
            do {
                let timeout = Promise<Int>.pending().timeout(on: serialQueue, patience)
                weakTimeout = timeout
            }
            #expect(weakTimeout == nil)
            #expect(waitForPromises(timeout: patience))
        }
    }

    @Suite struct AwaitPromise {
        @Test(.offThePool) func awaitReturnsTheValueOrThrows() throws {
            #expect(try awaitPromise(Promise(1)) == 1)
            #expect(throws: TestError(code: 1)) { try awaitPromise(Promise<Int>(TestError(code: 1))) }
            let later = Promise<Int>(on: concurrentQueue) { fulfill, _ in
                nonisolated(unsafe) let fulfill: (Int) -> Void = fulfill  // `@Sendable` under CheckedHandlers
                concurrentQueue.asyncAfter(deadline: .now() + 0.01) { fulfill(2) }
            }
            #expect(try awaitPromise(later) == 2)
            let rejectedLater = Promise<Int>(on: concurrentQueue) { throw TestError(code: 3) }
            #expect(throws: TestError(code: 3)) { try awaitPromise(rejectedLater) }
        }

        @Test(.offThePool) func awaitRefusesTheMainThread() {
            #expect(throws: AwaitPromiseError.calledOnMainThread) {
                try awaitPromise(Promise(1), onMainThread: true)
            }
            #expect(AwaitPromiseError.calledOnMainThread.description.contains("main thread"))
        }
    }

    @Suite struct SwiftConcurrency {
        @Test func asyncReturnsTheValueOrThrows() async throws {
            #expect(try await Promise(1).async() == 1)
            await #expect(throws: TestError(code: 2)) { try await Promise<Int>(TestError(code: 2)).async() }
            let pending = Promise<Int>.pending()
            concurrentQueue.asyncAfter(deadline: .now() + 0.01) { pending.fulfill(3) }
            #expect(try await pending.async() == 3)
        }

        @Test func asyncWorksFromAnActorWithANonSendableValue() async throws {
            let promise = Promise<NotSendable>(on: concurrentQueue) { NotSendable() }
            #expect(try await Holder().read(promise) == 4)
        }

        @Test func operationFulfills() async throws {
            let promise = Promise<Int>(priority: .high) { 5 }
            #expect(try await promise.async() == 5)
            #expect(promise.isFulfilled)
        }

        @Test func operationErrorsPassThroughAsTheSameInstance() async {
            let error = IdentityError()
            let promise = Promise<Int> { () async throws -> Int in throw error }
            #expect(await promise.errorAfterWaiting() as? IdentityError === error)
        }

        @Test func cancellationRejectsWithCancellationError() async {
            let promise = Promise<Int> { () async throws -> Int in throw CancellationError() }
            #expect(await promise.errorAfterWaiting() is CancellationError)
        }

        @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // Task.sleep(for:)
        @Test func cancellingTheAwaitingTaskCancelsTheOperation() async {
            let started = DispatchSemaphore(value: 0)
            let promise = Promise<Int> { () async throws -> Int in
                started.signal()
                try await Task.sleep(for: .seconds(10 * patience))
                return 1
            }
            let waiter = Task { try await promise.async() }
            #expect(await Task.detached { wait(started) }.value)
            waiter.cancel()
            let result = await waiter.result
            #expect(throws: CancellationError.self) { try result.get() }
            #expect(promise.error is CancellationError)
        }

        @Test func cancellingTheAwaitingTaskKeepsWaitingForOtherPromises() async throws {
            let promise = Promise<Int>.pending()
            let waiter = Task { try await promise.async() }
            waiter.cancel()
            promise.fulfill(6)
            #expect(try await waiter.value == 6)
        }
    }
}

/// A value that is not `Sendable`.
final class NotSendable {
    var value = 4
}

/// An actor awaiting a promise of a non-`Sendable` value on its own executor.
actor Holder {
    func read(_ promise: Promise<NotSendable>) async throws -> Int {
        try await promise.async().value
    }
}
