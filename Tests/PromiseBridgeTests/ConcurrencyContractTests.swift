import BoltsStyle
import Dispatch
import FBLStyle
import Foundation
import PromiseBridge
import PromiseKitStyle
import TestSupport
import Testing

// The contract every style's Swift concurrency API keeps, checked the same way for each:
// - `async()` returns the value, rethrows the same error instance, and throws the style's own cancellation error
//   (`BFCancelledError`, `PMKError.cancelled`, `CancellationError`; `isCancelled` is true for each);
// - `init(priority:operation:)` settles with the value, the same error instance, or, for a thrown
//   `CancellationError`, the style's own cancellation;
// - cancelling a Swift task awaiting `async()` cancels the operation of a promise made from one (which then ends in
//   the style's cancellation), and otherwise keeps waiting: a promise settled after its awaiting task was cancelled
//   loses nothing and leaks nothing.

extension Style {
    /// The styles whose promise can fail (a Guarantee has a contract of its own below).
    static let failable: [Style] = [.bolts, .pmk, .fbl]

    /// A promise of this style settled by `operation` through the style's `init(priority:operation:)`.
    func fromOperation(
        priority: TaskPriority? = nil, _ operation: @escaping @Sendable () async throws -> Int
    ) -> AnyPromise<Int> {
        switch self {
        case .bolts: .bolts(BFTask(priority: priority, operation: operation))
        case .pmk: .pmk(PromiseKitStyle.Promise(priority: priority, operation: operation))
        case .fbl: .fbl(FBLStyle.Promise(priority: priority, operation: operation))
        case .guarantee: preconditionFailure("a Guarantee's operation cannot throw")
        }
    }

    /// Whether `error` is the error this style's `async()` throws for its own cancellation.
    func isOwnCancellationError(_ error: any Error) -> Bool {
        switch self {
        case .bolts: error is BFCancelledError
        case .pmk: if case PMKError.cancelled = error { true } else { false }
        case .fbl: error is CancellationError
        case .guarantee: false
        }
    }
}

extension AnyPromise {
    /// The style's own `async()`.
    func async() async throws -> T {
        switch self {
        case .bolts(let task): try await task.async()
        case .pmk(let promise): try await promise.async()
        case .guarantee(let guarantee): await guarantee.async()
        case .fbl(let promise): try await promise.async()
        }
    }
}

/// A gate an operation waits at, ignoring cancellation, until the test opens it (guarded by an `NSLock`, which the
/// thread sanitizer understands).
final class Gate: @unchecked Sendable {
    private let lock = NSLock()
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let open = lock.withLock { () -> Bool in
                if isOpen { return true }
                waiters.append(continuation)
                return false
            }
            if open { continuation.resume() }
        }
    }

    func open() {
        let toResume = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
            isOpen = true
            defer { waiters = [] }
            return waiters
        }
        for waiter in toResume { waiter.resume() }
    }
}

/// Records that something happened (guarded by an `NSLock`, like `Gate`).
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}

@Suite("Swift concurrency: the same contract in every style", timeLimit(minutes: TestEnvironment.hangGuardMinutes))
struct ConcurrencyContractTests {
    // MARK: async()

    @Test(arguments: Style.failable, Timing.allCases)
    func asyncReturnsTheValue(_ style: Style, _ timing: Timing) async throws {
        let (promise, settleLater) = makeSource(style, .value, timing, value: 9, error: IdentifiedError())
        settleLater()
        #expect(try await promise.async() == 9)
    }

    @Test(arguments: Style.failable, Timing.allCases)
    func asyncRethrowsTheSameErrorInstance(_ style: Style, _ timing: Timing) async {
        let error = IdentifiedError(1)
        let (promise, settleLater) = makeSource(style, .error, timing, error: error)
        settleLater()
        let thrown = await #expect(throws: IdentifiedError.self) { try await promise.async() }
        #expect(thrown === error)
    }

    @Test(arguments: Style.failable, Timing.allCases)
    func asyncOfACancelledPromiseThrowsTheStylesCancellation(_ style: Style, _ timing: Timing) async {
        let (promise, settleLater) = makeSource(style, .cancelled, timing, error: IdentifiedError())
        settleLater()
        do {
            _ = try await promise.async()
            Issue.record("no error")
        } catch {
            #expect(style.isOwnCancellationError(error), "\(error)")
            #expect(error.isCancelled)
        }
    }

    // MARK: init(priority:operation:)

    @Test(arguments: Style.failable)
    func operationValueSettlesThePromise(_ style: Style) async throws {
        let promise = style.fromOperation(priority: .userInitiated) {
            await Task.yield()
            return 12
        }
        #expect(try await promise.async() == 12)
        expect(promise.observed, is: .value, value: 12, error: IdentifiedError())
    }

    @Test(arguments: Style.failable)
    func operationErrorIsTheSameInstance(_ style: Style) async {
        let error = IdentifiedError(2)
        let promise = style.fromOperation { throw error }
        let thrown = await #expect(throws: IdentifiedError.self) { try await promise.async() }
        #expect(thrown === error)
        expect(await promise.settled(), is: .error, value: 0, error: error)
    }

    @Test(arguments: Style.failable)
    func operationCancellationErrorIsTheStylesCancellation(_ style: Style) async {
        let promise = style.fromOperation { throw CancellationError() }
        expect(await promise.settled(), is: .cancelled, value: 0, error: IdentifiedError())
        await #expect(performing: { try await promise.async() }, throws: { style.isOwnCancellationError($0) })
    }

    // MARK: Cancelling the awaiting task

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // Task.sleep(for:)
    @Test(arguments: Style.failable)
    func cancellingTheAwaitingTaskCancelsTheOperation(_ style: Style) async {
        let started = Gate()
        let promise = style.fromOperation {
            started.open()
            try await Task.sleep(for: .seconds(3600))
            return 1
        }
        let awaiting = Task { try await promise.async() }
        await started.wait()
        awaiting.cancel()
        let result = await awaiting.result
        #expect(throws: (any Error).self) { try result.get() }
        if case .failure(let error) = result {
            #expect(style.isOwnCancellationError(error), "\(error)")
        }
        expect(await promise.settled(), is: .cancelled, value: 0, error: IdentifiedError())
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // Task.sleep(for:)
    @Test(arguments: Style.failable)
    func awaitingTaskCancelledBeforeItAwaitsCancelsTheOperation(_ style: Style) async {
        let promise = style.fromOperation {
            try await Task.sleep(for: .seconds(3600))
            return 1
        }
        let awaiting = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await promise.async()
        }
        await #expect(performing: { try await awaiting.value }, throws: { style.isOwnCancellationError($0) })
        expect(await promise.settled(), is: .cancelled, value: 0, error: IdentifiedError())
    }

    @Test(arguments: Style.failable)
    func operationThatIgnoresCancellationStillDeliversItsValue(_ style: Style) async throws {
        let gate = Gate()
        let promise = style.fromOperation {
            await gate.wait()
            return 77
        }
        let awaiting = Task { try await promise.async() }
        awaiting.cancel()
        gate.open()
        #expect(try await awaiting.value == 77)
        expect(promise.observed, is: .value, value: 77, error: IdentifiedError())
    }

    @Test(arguments: Style.allCases)
    func promiseSettledAfterItsAwaitingTaskWasCancelledLosesNothingAndLeaksNothing(_ style: Style) async throws {
        weak var weakPromise: AnyObject?
        var awaiting: Task<Int, any Error>?
        do {
            let (promise, settle) = makePending(style)
            weakPromise = promise.object
            let waiting = Flag()
            awaiting = Task {
                waiting.set()
                return try await promise.async()
            }
            #expect(await eventually { waiting.isSet })
            awaiting!.cancel()
            DispatchQueue.global().async { settle(.value, 31, IdentifiedError()) }
        }
        #expect(try await awaiting!.value == 31)
        awaiting = nil
        #expect(await eventually { weakPromise == nil })
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // Task.sleep(for:)
    @Test(arguments: Style.failable)
    func promiseFromAnOperationIsReleasedAfterACancelledAwait(_ style: Style) async {
        weak var weakPromise: AnyObject?
        do {
            let promise = style.fromOperation {
                try await Task.sleep(for: .seconds(3600))
                return 1
            }
            weakPromise = promise.object
            let awaiting = Task { try await promise.async() }
            awaiting.cancel()
            _ = await awaiting.result
        }
        #expect(await eventually { weakPromise == nil })
    }

    // MARK: Guarantee

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // Task.sleep(for:)
    @Test func guaranteeKeepsTheSameContractWithoutErrors() async {
        #expect(await Guarantee.value(3).async() == 3)
        let (guarantee, resolve) = Guarantee<Int>.pending()
        DispatchQueue.global().async { resolve(4) }
        #expect(await guarantee.async() == 4)
        let fromOperation = Guarantee<Int> {
            await Task.yield()
            return 5
        }
        #expect(await fromOperation.async() == 5)
        // Cancelling the awaiting task reaches the operation, which decides what value to give.
        let started = Gate()
        let cancellable = Guarantee<Int> {
            started.open()
            do {
                try await Task.sleep(for: .seconds(3600))
                return 0
            } catch {
                return -1
            }
        }
        let awaiting = Task { await cancellable.async() }
        await started.wait()
        awaiting.cancel()
        #expect(await awaiting.value == -1)
    }
}
