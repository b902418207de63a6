import Dispatch
import Foundation

/// A thread-safe log of events that the clause thread can wait on, with the clause's deadline.
final class Recorder<Event: Sendable>: Sendable {
    private let events = Locked<[Event]>([])
    private let signal = DispatchSemaphore(value: 0)

    func record(_ event: Event) {
        events.withLock { $0.append(event) }
        signal.signal()
    }

    var snapshot: [Event] { events.withLock { $0 } }
    var count: Int { events.withLock { $0.count } }

    /// Waits until at least `count` events were recorded, or fails with "timed out" at `context`'s deadline (or at
    /// `limit`, when it comes first): one of the suite's own waits (``ClauseContext/waiting(_:)``).
    func wait(
        for count: Int, _ what: @autoclosure () -> String, in context: ClauseContext, until limit: DispatchTime? = nil
    ) throws {
        let deadline = min(context.deadline, limit ?? context.deadline)
        try context.waiting {
            while self.count < count {
                if signal.wait(timeout: deadline) == .timedOut, self.count < count {
                    throw context.failure("timed out waiting for \(what())")
                }
            }
        }
    }

    /// Waits for one event without failing; false on timeout.
    func signalWait(until deadline: DispatchTime) -> Bool {
        while count < 1 {
            if DispatchTime.now() >= deadline { return false }
            Thread.sleep(forTimeInterval: 0.001)
        }
        return true
    }
}
