import Dispatch
import Foundation

/// The time of a clause's cases: the running case's deadline, the clause's other time limits, and the suite's own
/// waits, each bounded by the deadline.
///
/// Clause bodies run synchronously on a thread of their own (see ``Conformance``) and wait with semaphores bounded
/// by ``deadline``, so nothing here depends on the Swift concurrency pool or on the main queue. A wait that runs out
/// fails as the running case (``CaseRunner/failure(_:stalled:)``).
final class CaseClock: @unchecked Sendable {
    /// The cases the clock times: a wait that runs out fails named after the running one.
    let cases: CaseRunner
    /// The calls the implementation has made into the suite, which show that it is still doing something.
    let activity: ImplementationActivity
    /// How long the clause waits to see that something does not happen, in seconds (``Conformance/defaultGrace``).
    /// Seconds rather than a `Duration`: the clauses stay at the package's platform floor, below `Duration`'s.
    let grace: TimeInterval
    /// How long A+ 2.3.1 waits for a cycle to be detected, in seconds (``Conformance/cycleDetectionLimit``).
    let cycleDetectionLimit: TimeInterval
    /// How long "eventually" is, in the cases that settle a promise after a delay.
    let later: DispatchTimeInterval = .milliseconds(30)
    /// The queues the clause made, which ``waitGrace()`` flushes.
    private let queues: ClauseQueues
    /// The thread the clause body runs on (the clock is made there): the only one whose waits the watchdog sees. Only
    /// compared with the current thread, never used: the one thing here Foundation does not mark `Sendable`, and why
    /// the clock is `@unchecked Sendable`.
    private let thread = Thread.current

    init(
        cases: CaseRunner, activity: ImplementationActivity, queues: ClauseQueues, grace: TimeInterval,
        cycleDetectionLimit: TimeInterval
    ) {
        self.cases = cases
        self.activity = activity
        self.queues = queues
        self.grace = grace
        self.cycleDetectionLimit = cycleDetectionLimit
    }

    /// The stalls of the run: once it has had one, a wait also ends when the implementation has been quiet
    /// (``Recorder/wait(for:_:in:until:)``).
    var stalls: RunStalls { cases.stalls }

    /// The time limit of each top-level case: its deadline is this long after it starts.
    var caseTimeout: DispatchTimeInterval { cases.caseTimeout }

    /// The deadline of the case running now (or, between cases, ``caseTimeout`` after the last one ended).
    var deadline: DispatchTime { cases.progress.deadline }

    /// The running case's work moved on (another stretch of a long chain built, say): its deadline moves to
    /// ``caseTimeout`` from now, which the watchdog sees, so that a slow machine gets more time while the work moves.
    func madeProgress() {
        cases.progress.extendDeadline(to: .now() + caseTimeout)
    }

    /// Runs `body`, one of the suite's own waits, bounded by the case's deadline: on the clause's thread, the watchdog
    /// does not give up on the thread meanwhile (``CaseProgress/waiting(_:)``), since the wait ends by itself.
    func waiting<Result>(_ body: () throws -> Result) rethrows -> Result {
        Thread.current === thread ? try cases.progress.waiting(body) : try body()
    }

    /// Waits for `recorder`'s first event for as long as the work it waits for keeps going: `reached()` says how far
    /// it got (the steps of a chain, say), and each time that has grown the running case's deadline moves to
    /// ``caseTimeout`` from now, which the watchdog sees. So the limit scales with the work measured: a slow machine
    /// or a busy one gets more time while the work moves, and a hang still fails after ``caseTimeout`` without a step.
    /// `longest` bounds the whole wait, as a number of ``caseTimeout``s. All of it is one of the suite's own waits
    /// (``waiting(_:)``).
    func waitWhileProgressing<Event>(
        _ recorder: Recorder<Event>, _ what: String, of total: Int, longest: Int = 10, reached: () -> Int
    ) throws {
        try waiting {
            let start = DispatchTime.now()
            var cap = start
            for _ in 0..<longest { cap = cap + caseTimeout }
            var last = reached()
            while true {
                do {
                    return try recorder.wait(for: 1, what, in: self, until: min(cap, .now() + .milliseconds(250)))
                } catch let failure as ClauseFailure {
                    let now = DispatchTime.now()
                    let steps = reached()
                    if steps > last, now < cap {
                        last = steps
                        madeProgress()
                        continue
                    }
                    if now < min(deadline, cap) { continue }
                    if steps == 0 { throw ClauseFailure(message: failure.message, stalled: true) }  // named already
                    let seconds = String(format: "%.1f", Double(now.uptimeNanoseconds - start.uptimeNanoseconds) / 1e9)
                    let why = now >= cap ? "still going after \(longest) case time limits" : "no step since the last"
                    throw cases.failure(
                        "timed out waiting for \(what): \(why), \(steps) of \(total) steps in \(seconds) s",
                        stalled: true)
                }
            }
        }
    }

    /// Waits long enough for a misbehaviour (an early or a repeated call, a settlement that must not happen) to show.
    ///
    /// First every queue the clause made, and Dispatch's global queue (where most libraries run handlers that have
    /// no queue), runs one block sent now: whatever a misbehaving library had queued there before it has then at
    /// least started, however busy the machine is. Then the clause sleeps ``grace``, for work that was on its way.
    func waitGrace() {
        cases.progress.update { $0.graceWaits += 1 }
        let flushed = DispatchGroup()
        for queue in queues.all + [.global()] {
            queue.async(group: flushed, flags: .barrier) {}
        }
        waiting {
            _ = flushed.wait(timeout: deadline)
            Thread.sleep(forTimeInterval: grace)
        }
    }
}
