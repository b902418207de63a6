import Dispatch
import Foundation

/// How many events a ``Recorder`` keeps: more than any clause records from a promise that does its work (the most,
/// `swift.concurrentRegistration` in a stress run, records ``ClauseContext/registrationThreads`` times
/// ``ClauseContext/stressRegistrationsPerThread``), and few enough that a promise that calls a handler without end
/// does not grow the suite's memory with it. Later events are counted, not kept.
let recorderKeptEvents = 100_000

/// A thread-safe log of events that the clause thread can wait on, with the clause's deadline. It keeps the first
/// ``recorderKeptEvents`` events and counts every one.
final class Recorder<Event: Sendable>: Sendable {
    private let events = Locked<(kept: [Event], count: Int)>(([], 0))
    private let signal = DispatchSemaphore(value: 0)

    func record(_ event: Event) {
        events.withLock { events in
            if events.kept.count < recorderKeptEvents { events.kept.append(event) }
            events.count += 1
        }
        signal.signal()
    }

    /// The events kept: every one, or the first ``recorderKeptEvents``.
    var snapshot: [Event] { events.withLock { $0.kept } }
    /// How many events were recorded, kept or not.
    var count: Int { events.withLock { $0.count } }

    /// Waits until at least `count` events were recorded, or fails with "timed out" at `clock`'s deadline (or at
    /// `limit`, when it comes first): one of the suite's own waits (``CaseClock/waiting(_:)``). Running out the case's
    /// deadline is a stall (``RunStalls``); once the run has had one, the wait also ends after ``RunStalls/quietLimit``
    /// in which the implementation called nothing of the suite's.
    func wait(
        for count: Int, _ what: @autoclosure () -> String, in clock: CaseClock, until limit: DispatchTime? = nil
    ) throws {
        let deadline = min(clock.deadline, limit ?? clock.deadline)
        let stall = clock.stalls.firstStall
        let quiet = UInt64(RunStalls.quietLimit * 1e9)
        var activity = clock.activity.count
        var lastActive = DispatchTime.now()
        try clock.waiting {
            while self.count < count {
                let slice = stall == nil ? deadline : min(deadline, .now() + .milliseconds(50))
                guard signal.wait(timeout: slice) == .timedOut, self.count < count else { continue }
                let now = DispatchTime.now()
                if now >= deadline {
                    // The case's deadline, not an earlier limit of the caller's own, is a stall.
                    throw clock.cases.failure(
                        "timed out waiting for \(what())", stalled: limit.map { deadline < $0 } ?? true)
                }
                if clock.activity.count != activity {
                    activity = clock.activity.count
                    lastActive = now
                } else if let stall, now.uptimeNanoseconds - lastActive.uptimeNanoseconds >= quiet {
                    throw clock.cases.failure(
                        "timed out waiting for \(what()) after \(RunStalls.quietLimit) s in which the implementation "
                            + "called nothing (the run had stalled before: \(stall))")
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
