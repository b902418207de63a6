// Bolts-Swift 1.5 behaviours that code moved from Bolts-Swift relies on, one test each. Each test names the
// Bolts-Swift API or test it matches; together they pin what lets Bolts-Swift's own test suite (TaskTests,
// TaskCompletionSourceTests, ExecutorTests) compile against BoltsStyle with only the import and the `BF` names
// changed, and pass.

import BoltsStyle
import Dispatch
import Foundation
import TestSupport
import Testing

/// An `async` function, for closures that must select the `async` initializer.
private func asyncValue<T: Sendable>(_ value: T) async -> T {
    await Task.yield()
    return value
}

@Suite("Bolts-Swift compatibility")
struct CompatibilityTests {
    // MARK: Bolts-Swift's `Task(_ executor: Executor = .default, closure: () throws -> TResult)`

    /// Bolts-Swift's `Task<String> { … }` (TaskTests.testConstructorWithClosureReturningValue): the closure runs on
    /// `.default`, inline on this thread, so the result is there when the initializer returns.
    @Test func synchronousInitializerWithATypeArgumentRunsTheClosureBeforeReturning() {
        let caller = pthread_self()
        nonisolated(unsafe) var ranOnCaller = false
        let task = BFTask<String> {
            ranOnCaller = pthread_equal(pthread_self(), caller) != 0
            return "x"
        }
        #expect(task.result == "x")
        #expect(ranOnCaller)
    }

    /// Bolts-Swift's `Task { … }` without a type argument: the closure is the work, not the result, so the task is a
    /// `Task<String>` that has succeeded when the initializer returns.
    @Test func synchronousInitializerInfersTheResultType() {
        let task = BFTask { "x" }
        #expect(type(of: task) == BFTask<String>.self)
        #expect(task.result == "x")
    }

    /// Bolts-Swift's `Task(.immediate) { … }`: an explicit executor, with and without a type argument.
    @Test func synchronousInitializerTakesAnExecutor() {
        let typed = BFTask<String>(.immediate) { "x" }
        #expect(typed.result == "x")
        let inferred = BFTask(.immediate) { 42 }
        #expect(type(of: inferred) == BFTask<Int>.self)
        #expect(inferred.result == 42)
        let labelled = BFTask<Int>(.default, closure: { 7 })
        #expect(labelled.result == 7)
    }

    /// Bolts-Swift's `Task(.queue(q)) { … }`: the closure runs on the queue, so the task is pending until it has.
    @Test(.offThePool) func synchronousInitializerOnAQueueRunsTheClosureThere() {
        let queue = DispatchQueue(label: "compatibility.sync-init")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 1)
        queue.suspend()
        let task = BFTask<Int>(.queue(queue)) { DispatchQueue.getSpecific(key: key) ?? 0 }
        #expect(!task.completed)
        queue.resume()
        task.waitForTest()
        #expect(task.result == 1)
    }

    /// Bolts-Swift's `TaskState.fromClosure`: a closure that throws faults the task with that error, at once on
    /// `.default`; spelled with and without a closure signature.
    @Test func synchronousInitializerWithAThrowingClosureFaults() {
        let task = BFTask<Int> { throw TestError(code: 3) }
        #expect(task.faulted)
        #expect(task.error as? TestError == TestError(code: 3))
        let signed = BFTask { () throws -> Int in throw TestError(code: 4) }
        #expect(signed.error as? TestError == TestError(code: 4))
    }

    /// Bolts-Swift's `CancelledError` thrown from the closure cancels the task instead of faulting it
    /// (TaskTests.testExecuteWithClosureThrowingCancelledError, for the initializer).
    @Test func synchronousInitializerThrowingCancelledErrorCancels() {
        let task = BFTask<String> { throw BFCancelledError() }
        #expect(task.cancelled)
        #expect(task.error == nil)
    }

    /// Bolts-Swift's `TaskState.fromClosure` cancels for `CancelledError` alone: Swift's `CancellationError`, thrown
    /// from the synchronous closure, faults the task like any other error (only the `async` initializer maps it to
    /// cancellation).
    @Test func synchronousInitializerThrowingCancellationErrorFaults() {
        let task = BFTask<String> { throw CancellationError() }
        #expect(task.faulted)
        #expect(task.error is CancellationError)
    }

    /// Bolts-Swift's `Task.execute(_:closure:)` is the same initializer under another name.
    @Test func executeIsTheSynchronousInitializer() {
        let task = BFTask<String>.execute(.immediate) { "x" }
        #expect(task.result == "x")
    }

    /// Not in Bolts-Swift: a closure that contains `await` can only be `async`, so `BFTask { try await … }` is the
    /// `async` initializer; the task waits for what the closure awaits.
    @Test func closureWithAwaitSelectsTheAsyncInitializer() async throws {
        let source = BFTaskCompletionSource<Int>()
        let task = BFTask { try await source.task.async() + 1 }
        #expect(type(of: task) == BFTask<Int>.self)
        #expect(!task.completed)
        source.set(result: 41)
        #expect(try await task.async() == 42)
    }

    /// As above, with a type argument: `BFTask<Int> { try await … }` is the `async` initializer.
    @Test func closureWithAwaitAndATypeArgumentSelectsTheAsyncInitializer() async throws {
        let source = BFTaskCompletionSource<Int>()
        let task = BFTask<Int> { try await source.task.async() * 2 }
        #expect(!task.completed)
        source.set(result: 21)
        #expect(try await task.async() == 42)
    }

    /// As above, for a closure whose signature says `async`, with and without a type argument.
    @Test func closureDeclaredAsyncSelectsTheAsyncInitializer() async throws {
        let inferred = BFTask { () async -> Int in await asyncValue(1) }
        #expect(type(of: inferred) == BFTask<Int>.self)
        let typed = BFTask<String> { () async throws -> String in "x" }
        #expect(try await inferred.async() == 1)
        #expect(try await typed.async() == "x")
    }

    /// Bolts-Swift's `Task(_ result:)` still takes a value, also a value of function type when asked for one.
    @Test func valueInitializerStillTakesAValue() {
        let number = BFTask(5)
        #expect(number.result == 5)
        let function: () -> Int = { 6 }
        let holdingAFunction = BFTask<() -> Int>(function)
        #expect(holdingAFunction.result?() == 6)
    }

    // MARK: Bolts-Swift's `class func withDelay(_ delay: TimeInterval) -> Task<Void>`

    /// Bolts-Swift's `Task<String>.withDelay(0.01)` (TaskTests.testWithDelay): callable on any task type, and the
    /// task it returns is a `Task<Void>`.
    @Test func withDelayIsCallableOnAnyTaskType() async throws {
        let task = BFTask<String>.withDelay(0.01)
        #expect(type(of: task) == BFTask<Void>.self)
        try await task.async()
        #expect(task.completed && !task.faulted && !task.cancelled)
    }

    /// The cancellation-token forms of `withDelay` (BoltsStyle's additions) are callable on any task type too.
    @Test func withDelayWithATokenIsCallableOnAnyTaskType() {
        let source = BFCancellationTokenSource()
        let labelled = BFTask<String>.withDelay(600, cancellationToken: source.token)
        let unlabelled = BFTask<[Int]>.withDelay(600, source.token)
        #expect(!labelled.completed && !unlabelled.completed)
        source.cancel()
        #expect(labelled.cancelled && unlabelled.cancelled)
    }

    // MARK: Bolts-Swift's `public typealias Continuation = () -> Void`

    /// Bolts-Swift's `Task.Continuation` names a closure that takes and returns nothing.
    @Test func continuationIsAClosureTakingAndReturningNothing() {
        #expect(BFTask<Int>.Continuation.self == (() -> Void).self)
        var ran = 0
        let continuation: BFTask<String>.Continuation = { ran += 1 }
        continuation()
        #expect(ran == 1)
    }
}
