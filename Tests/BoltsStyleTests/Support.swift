import BoltsStyle
import Foundation
import TestSupport
import Testing

/// Test error with an identity, to check that errors pass through as the same value.
struct TestError: Error, Equatable {
    var code = 0
}

/// Another error type, for the typed error continuations.
struct OtherError: Error, Equatable {}

/// The limit of every wait for something that must happen: the hang guard (see `TestEnvironment.hangGuard`).
let generousTimeout: TimeInterval = TestEnvironment.hangGuard

/// A lock-protected counter for closures that run on several threads.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    var value: Int { lock.withLock { count } }

    @discardableResult
    func increment() -> Int {
        lock.withLock {
            count += 1
            return count
        }
    }
}

/// A lock-protected log of events.
final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []

    var events: [String] { lock.withLock { items } }

    func append(_ event: String) {
        lock.withLock { items.append(event) }
    }
}

extension BFTask {
    /// Waits (generously) and records a test failure if the task did not complete.
    func waitForTest(sourceLocation: SourceLocation = #_sourceLocation) {
        let done = waitUntilCompleted(timeout: generousTimeout)
        #expect(done, "task did not complete in time", sourceLocation: sourceLocation)
    }

    /// Waits for the task as long as `progress` (a count of the steps it ran) keeps growing, and records a test failure
    /// if it stood still for ``generousTimeout``: for long work, which a busy machine makes longer but not stuck.
    func waitForTest(progress: () -> Int, sourceLocation: SourceLocation = #_sourceLocation) {
        var last = progress()
        while !waitUntilCompleted(timeout: generousTimeout) {
            let now = progress()
            guard now != last else {
                Issue.record("task made no progress in \(generousTimeout) s, at \(now)", sourceLocation: sourceLocation)
                return
            }
            last = now
        }
    }
}
