import Foundation
import PromiseConformance

/// The settling side of a pending `Task`: the task awaits ``value``, and the first ``settle(_:)`` resumes it (or, when
/// it comes before the task has started awaiting, is kept for it).
final class TaskGate: @unchecked Sendable {
    private let lock = NSLock()
    private var outcome: Result<Sentinel, any Error>?
    private var continuation: CheckedContinuation<Sentinel, any Error>?

    /// The outcome, once settled. Await it once.
    var value: Sentinel {
        get async throws {
            try await withCheckedThrowingContinuation { continuation in
                lock.lock()
                if let outcome {
                    lock.unlock()
                    continuation.resume(with: outcome)
                } else {
                    self.continuation = continuation
                    lock.unlock()
                }
            }
        }
    }

    /// Settles the gate unless it is settled already, resuming the task that awaits it.
    func settle(_ outcome: Result<Sentinel, any Error>) {
        lock.lock()
        guard self.outcome == nil else { return lock.unlock() }
        self.outcome = outcome
        let waiting = continuation
        continuation = nil
        lock.unlock()
        waiting?.resume(with: outcome)
    }
}
