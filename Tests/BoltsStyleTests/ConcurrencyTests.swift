import BoltsStyle
import Dispatch
import Testing

// Async tests await instead of blocking: a blocked cooperative thread could starve the
// Swift tasks these tests wait for.

/// A class-based error, to check that an error passes through as the same instance.
final class IdentifiedError: Error, @unchecked Sendable {}

/// A non-Sendable value, to check that `async()` works with one from any isolation.
final class NonSendableBox {
    var value = 0
}

/// Compiles only if `async()` can be awaited on the main actor with a non-Sendable result.
/// (Never called: tests must not depend on the main queue being served.)
@MainActor
func awaitOnMainActor(_ task: BFTask<NonSendableBox>) async throws -> Int {
    try await task.async().value
}

/// Compiles only if `async()` can be awaited from another actor with a non-Sendable result.
actor Consumer {
    var last = 0

    func consume(_ task: BFTask<NonSendableBox>) async throws -> Int {
        let box = try await task.async()
        last = box.value
        return last
    }
}

@Suite("Swift concurrency")
struct ConcurrencyTests {
    @Test func asyncReturnsTheResult() async throws {
        #expect(try await BFTask(3).async() == 3)
        let source = BFTaskCompletionSource<Int>()
        DispatchQueue.global().async { source.set(result: 4) }
        #expect(try await source.task.async() == 4)
    }

    @Test func asyncThrowsTheError() async {
        let error = IdentifiedError()
        await #expect(throws: IdentifiedError.self) { try await BFTask<Int>(error: error).async() }
        do {
            _ = try await BFTask<Int>(error: error).async()
        } catch let thrown as IdentifiedError {
            #expect(thrown === error)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func asyncOfACancelledTaskThrowsCancelledError() async {
        await #expect(throws: BFCancelledError.self) { try await BFTask<Int>.cancelledTask().async() }
        let source = BFTaskCompletionSource<Int>()
        DispatchQueue.global().async { source.cancel() }
        await #expect(throws: BFCancelledError.self) { try await source.task.async() }
    }

    @Test func asyncWithANonSendableResultFromAnActor() async throws {
        let box = NonSendableBox()
        box.value = 9
        let task = BFTask(box)
        #expect(try await Consumer().consume(task) == 9)
    }

    @Test func taskFromAnAsyncClosureSucceeds() async throws {
        let task = BFTask<Int>(priority: .userInitiated) {
            await Task.yield()
            return 11
        }
        #expect(try await task.async() == 11)
        #expect(task.result == 11)
    }

    @Test func taskFromAnAsyncClosurePassesTheSameErrorInstance() async {
        let error = IdentifiedError()
        let task = BFTask<Int> { () async throws -> Int in throw error }
        _ = try? await task.async()
        #expect(task.error as? IdentifiedError === error)
    }

    @Test func taskFromAnAsyncClosureThrowingCancellationIsCancelled() async {
        let task = BFTask<Int> { () async throws -> Int in throw CancellationError() }
        await #expect(throws: BFCancelledError.self) { try await task.async() }
        #expect(task.cancelled)
        let bolts = BFTask<Int> { () async throws -> Int in throw BFCancelledError() }
        await #expect(throws: BFCancelledError.self) { try await bolts.async() }
        #expect(bolts.cancelled)
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // Task.sleep(for:)
    @Test func cancellingTheAwaiterCancelsTheAsyncOperation() async throws {
        let started = BFTaskCompletionSource<Void>()
        let task = BFTask<Int> {
            started.set(result: ())
            try await Task.sleep(for: .seconds(600))
            return 1
        }
        let awaiter = Task { try await task.async() }
        try await started.task.async()
        awaiter.cancel()
        let outcome = await awaiter.result
        #expect(throws: BFCancelledError.self) { try outcome.get() }
        #expect(task.cancelled)
    }

    @Test func cancellingTheAwaiterOfAPlainTaskKeepsWaiting() async throws {
        let source = BFTaskCompletionSource<Int>()
        let awaiter = Task { try await source.task.async() }
        awaiter.cancel()
        source.set(result: 5)
        #expect(try await awaiter.value == 5)
    }

    @Test func manyAwaitersAllResume() async throws {
        let source = BFTaskCompletionSource<Int>()
        let total = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<50 {
                group.addTask { try await source.task.async() }
            }
            source.set(result: 2)
            return try await group.reduce(0, +)
        }
        #expect(total == 100)
    }

    @Test func continuationsChainOnAnAsyncTask() async throws {
        let task = BFTask<Int> { () async -> Int in 20 }.continueOnSuccessWith(.immediate) { $0 + 1 }
        #expect(try await task.async() == 21)
    }

    @Test func tokenCancelledBeforeCreationCancelsWithoutRunningTheOperation() async {
        let source = BFCancellationTokenSource()
        source.cancel()
        let task = BFTask<Int>(cancellationToken: source.token) {
            Issue.record("the operation ran")
            return 1
        }
        #expect(task.cancelled)
        await #expect(throws: BFCancelledError.self) { try await task.async() }
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // Task.sleep(for:)
    @Test func tokenCancelledLaterCancelsTheOperation() async {
        let source = BFCancellationTokenSource()
        let task = BFTask<Int>(priority: .medium, cancellationToken: source.token) {
            try await Task.sleep(for: .seconds(3600))
            return 1
        }
        source.cancel()
        await #expect(throws: BFCancelledError.self) { try await task.async() }
        #expect(task.cancelled)
    }

    @Test func tokenOverloadPassesValuesAndErrorsThrough() async throws {
        let source = BFCancellationTokenSource()
        #expect(try await BFTask<Int>(cancellationToken: source.token) { 6 }.async() == 6)
        #expect(try await BFTask<Int>(cancellationToken: nil) { 7 }.async() == 7)
        let error = IdentifiedError()
        let thrown = await #expect(throws: IdentifiedError.self) {
            try await BFTask<Int>(cancellationToken: source.token) { throw error }.async()
        }
        #expect(thrown === error)
        // Cancelling the token afterwards changes nothing.
        source.cancel()
    }
}

@Suite("BFTask initializer overloads")
struct InitializerOverloadTests {
    /// A trailing `async` closure without a type annotation makes a task from the operation, not a task whose result
    /// is the closure.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // Task.sleep(for:)
    @Test func trailingAsyncClosureIsTheOperation() async throws {
        let task = BFTask { () async throws -> Int in
            try await Task.sleep(for: .milliseconds(1))
            return 5
        }
        let value: Int = try await task.async()
        #expect(value == 5)
        #expect(BFTask(5).result == 5)
        #expect(BFTask("ready").result == "ready")
    }
}
