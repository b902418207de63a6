import Dispatch
import Foundation

/// What a clause body receives: the adapter, the run's settings, and the parts that do the work, one job each.
///
/// - ``cases`` (``CaseRunner``): runs each named case, names the failures inside it, records how it ended;
/// - ``queues`` (``ClauseQueues``): the queues the clause made, which a handler can recognise;
/// - ``clock`` (``CaseClock``): the running case's deadline, the other time limits, and the suite's own waits;
/// - ``front`` (``AdapterFront``): the adapter as the clauses call it, `then` routed through an entry point;
/// - ``expect`` (``Expectations``): the checks, `try expect(condition, "message")`, `try expect.only(...)`;
/// - ``racing`` (``Racing``): the rounds of a race case and how long it races.
///
/// The words nearly every clause says are its own too, handed to the part that does them: a case (``inCase(_:_:)``,
/// ``failure(_:stalled:)``) and the adapter's promises (``pending()``, ``settled(_:)``, ``settle(_:_:)``,
/// ``then(_:on:onFulfilled:onRejected:)``, ``observe(_:on:)``). A clause reaches the rest through its part:
/// `clock.waitGrace()`, `clock.deadline`, `racing.rounds(minimum:)`, `queues.marked("serial")`. The parts know
/// nothing of the context, and each knows only the parts listed before it (the module's overview draws the same
/// order, and `FolderLayering` checks it).
final class ClauseContext: Sendable {
    /// The adapter the clause runs over.
    let adapter: ErasedAdapter
    /// How a failing generated program's report says to run it again.
    let replay: ProgramReplay
    /// Whether the run is a stress run (`PROMISES_STRESS=1` or `promise-conformance --stress`): longer chains, more
    /// handlers, longer races.
    let stress: Bool
    /// The bookkeeping of the clause's cases.
    let cases: CaseRunner
    /// The queues the clause made.
    let queues: ClauseQueues
    /// The time of the clause's cases: deadlines, time limits and waits.
    let clock: CaseClock
    /// The adapter as the clauses call it.
    let front: AdapterFront
    /// The clause's checks.
    let expect: Expectations
    /// The rounds of the clause's race cases.
    let racing: Racing

    /// A context for the clause `clauseID`, made on the thread that runs its body; `progress` is what the watchdog
    /// sees of it, and the top-level cases in `skipping` are not run (an earlier run of the clause ran them).
    init(
        adapter: ErasedAdapter, replay: ProgramReplay, caseTimeout: DispatchTimeInterval, progress: CaseProgress,
        stress: Bool, grace: TimeInterval, cycleDetectionLimit: TimeInterval, skipping: Set<String> = [],
        clauseID: String = "", stalls: RunStalls = RunStalls()
    ) {
        self.adapter = adapter
        self.replay = replay
        self.stress = stress
        cases = CaseRunner(
            clauseID: clauseID, adapter: adapter, stalls: stalls, progress: progress, caseTimeout: caseTimeout,
            skipping: skipping)
        queues = ClauseQueues()
        clock = CaseClock(
            cases: cases, activity: adapter.activity, queues: queues, grace: grace,
            cycleDetectionLimit: cycleDetectionLimit)
        front = AdapterFront(adapter)
        expect = Expectations(cases: cases, clock: clock, front: front)
        racing = Racing(clock: clock, stress: stress)
    }

    /// Runs `body` with every `then` call whose handlers `calls` describes going through `entry` where it fits
    /// (``AdapterFront/routing(through:_:_:)``), and each top-level case named "via NAME: case"
    /// (``CaseRunner/routed(via:_:)``, ``Clause/routed(_:)``).
    func routing(through entry: ErasedEntryPoint, _ calls: RoutedCalls, _ body: () throws -> Void) rethrows {
        try front.routing(through: entry, calls) { try cases.routed(via: entry.name, body) }
    }

    // MARK: Cases (CaseRunner)

    /// Runs one named case: ``CaseRunner/inCase(_:_:)``.
    func inCase(_ name: String, _ body: () throws -> Void) throws { try cases.inCase(name, body) }

    /// A failure named after the running case: ``CaseRunner/failure(_:stalled:)``.
    func failure(_ message: String, stalled: Bool = false) -> ClauseFailure { cases.failure(message, stalled: stalled) }

    // MARK: Promises (AdapterFront)

    /// A pending promise and the functions that settle it: ``AdapterFront/pending()``.
    func pending() -> ErasedAdapter.Pending { front.pending() }

    /// A promise already settled: ``AdapterFront/settled(_:)``.
    func settled(_ settlement: Settlement) -> ErasedPromise { front.settled(settlement) }

    /// Settles a pending promise: ``AdapterFront/settle(_:_:)``.
    func settle(_ pending: ErasedAdapter.Pending, _ settlement: Settlement) { front.settle(pending, settlement) }

    /// The adapter's `then`, or an entry point's while routing: ``AdapterFront/then(_:on:onFulfilled:onRejected:)``.
    func then(
        _ promise: ErasedPromise, on queue: DispatchQueue? = nil,
        onFulfilled: ErasedAdapter.FulfilledHandler? = nil, onRejected: ErasedAdapter.RejectedHandler? = nil
    ) -> ErasedPromise {
        front.then(promise, on: queue, onFulfilled: onFulfilled, onRejected: onRejected)
    }

    /// Handlers that record what they see and pass it on: ``AdapterFront/observe(_:on:)``.
    @discardableResult
    func observe(_ promise: ErasedPromise, on queue: DispatchQueue? = nil) -> Recorder<Outcome> {
        front.observe(promise, on: queue)
    }
}
