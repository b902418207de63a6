import Dispatch
import Foundation
import TestSupport
import Testing

@testable import FBLStyle

/// All FBLStyle tests, serialized: `waitForPromises(timeout:)` waits on one process-wide group, so no other test of
/// this module may hold pending promises while a group-sensitive test runs, and one suite changes
/// `DispatchQueue.promises`. Every other test passes its queue explicitly and never needs the main queue.
@Suite(.serialized) struct FBLStyleTests {}

/// A serial queue for test blocks.
let serialQueue = DispatchQueue(label: "FBLStyleTests.serial")
/// A concurrent queue for test blocks.
let concurrentQueue = DispatchQueue(label: "FBLStyleTests.concurrent", attributes: .concurrent)

/// Marks blocks that run on `serialQueue`.
let serialQueueKey = DispatchSpecificKey<Int>()

/// Whether long stress runs are enabled (`PROMISES_STRESS=1`).
let isStressRun = ProcessInfo.processInfo.environment["PROMISES_STRESS"] == "1"

/// A plain test error.
struct TestError: Error, Equatable {
    var code = 0
}

/// An error class, to check that the same instance passes through.
final class IdentityError: Error, @unchecked Sendable {}

/// The limit for anything the tests wait for: the hang guard, because `waitForPromises` waits for every FBLStyle
/// promise of the process, other tests' included.
let patience: TimeInterval = TestEnvironment.hangGuard

extension Promise {
    /// The resolution, awaited with a generous safety timeout so that a broken promise fails instead of hanging.
    func outcome() async -> Result<Value, any Error> {
        do {
            return .success(try await timeout(on: concurrentQueue, patience).async())
        } catch {
            return .failure(error)
        }
    }

    /// The value; fails the test if the promise is rejected.
    func valueAfterWaiting(sourceLocation: SourceLocation = #_sourceLocation) async throws -> Value {
        try await outcome().get()
    }

    /// The error; fails the test if the promise is fulfilled.
    func errorAfterWaiting(sourceLocation: SourceLocation = #_sourceLocation) async -> (any Error)? {
        if case .failure(let error) = await outcome() { return error }
        Issue.record("expected a rejection", sourceLocation: sourceLocation)
        return nil
    }
}

/// A counter safe to bump from any thread.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func increment() {
        lock.lock()
        count += 1
        lock.unlock()
    }

    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}

/// A box for values captured by blocks, guarded by the queues the tests serialize on.
final class Box<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: T

    init(_ value: T) { stored = value }

    var value: T {
        get {
            lock.lock()
            defer { lock.unlock() }
            return stored
        }
        set {
            lock.lock()
            stored = newValue
            lock.unlock()
        }
    }
}

/// Blocks until `semaphore` is signalled or the patience runs out; returns whether it was signalled.
func wait(_ semaphore: DispatchSemaphore) -> Bool {
    semaphore.wait(timeout: .now() + patience) == .success
}

/// Starts the serial queue's marker once.
let markSerialQueue: Void = serialQueue.setSpecific(key: serialQueueKey, value: 1)

/// Whether the current block runs on `serialQueue`.
func onSerialQueue() -> Bool {
    _ = markSerialQueue
    return DispatchQueue.getSpecific(key: serialQueueKey) == 1
}
