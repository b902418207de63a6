import Dispatch
import Foundation

/// Runs clauses over a promise implementation.
///
/// Each clause runs on a fresh thread with a known stack size (``clauseStackSize``), so a stack overflow shows
/// instead of hiding in a large main-thread stack. Its top-level cases (``Clause/cases``) run one after the other, each
/// with its own time limit, the `timeout` of a run: a case's waits are bounded by its deadline, `timeout` after the
/// case starts. A case that fails is recorded and the clause goes on with its next case. A case that does not return
/// by its deadline plus a margin (``watchdogMargin``), because the implementation hangs inside a call or a handler
/// blocks, is recorded as timed out; its thread is abandoned, and the clause's remaining cases run on a fresh thread.
/// Nothing in the suite needs `DispatchQueue.main` to be served, nor the Swift concurrency pool to have a free thread.
///
/// Set the environment variable `PROMISES_STRESS=1` to race for longer and build longer chains (see `stress`).
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
public enum Conformance {
    /// The stack size of the thread each clause runs on: 1 MiB.
    public static let clauseStackSize = 1 << 20

    /// The default time limit of each case of a clause (each of its top-level ``Clause/cases``).
    ///
    /// It guards against an implementation that hangs: a case whose wait for something that must happen runs past it
    /// fails with "timed out waiting for ...", and one that does not return at all (a call into the implementation
    /// that never returns) is recorded as timed out once the ``watchdogMargin`` has passed too; either way the clause
    /// goes on with its next case, which has a limit of its own. A case that does heavy work (`swift.deepChain` builds
    /// chains of 20,000 and 100,000 handlers) needs more of it on a slow machine, or on one whose cores are busy with
    /// other work.
    public static let defaultTimeout: Duration = .seconds(30)

    /// How long past a case's deadline the watchdog waits before it gives up on the case's thread: 2 s. A case that
    /// is only waiting (for a handler, a settlement) ends by itself at its deadline, so the watchdog leaves a thread in
    /// one of the suite's own waits alone, and gives it this margin again once it is out (a busy machine can wake it
    /// late); one that is still running this long after its deadline, outside them, is stuck in the implementation.
    public static let watchdogMargin: Duration = .seconds(2)

    /// The default grace period: how long a clause waits to see that something does *not* happen.
    ///
    /// A clause checking that a handler is called at most once, is not called early, or that a promise stays pending
    /// cannot wait for the absence of an event. It first lets every queue the clause used, and Dispatch's global
    /// queue, run a block sent after the event it expected (so that work a misbehaving implementation had already
    /// queued has started, however busy the machine), then sleeps the grace period. Each ``ClauseResult`` counts how
    /// many such waits its clause made (``ClauseResult/graceWaits``).
    public static let defaultGrace: Duration = .milliseconds(30)

    /// How long A+ 2.3.1 waits, once a handler has returned its own derived promise, for that promise to be
    /// rejected: 3 s. A library without cycle detection never settles it, and fails (or shows its declared
    /// deviation) after this bound rather than after the clause's whole time limit.
    public static let cycleDetectionLimit: Duration = .seconds(3)

    /// Runs `clauses` over the implementation behind `adapter`, one after the other.
    ///
    /// - Parameters:
    ///   - adapter: the implementation under test.
    ///   - clauses: the clauses to run, ``Clause/all`` by default.
    ///   - timeout: the time limit of each case of each clause (``defaultTimeout``).
    ///   - stress: race for the stress budget (2 s per race clause, not 0.25 s) and settle chains of 1,000,000;
    ///     defaults to `PROMISES_STRESS=1` in the environment.
    ///   - grace: how long a clause waits to see that something does not happen (``defaultGrace``).
    ///   - repetitions: how many times each clause runs (a clause declared in ``PromiseAdapter/flakyDepartures`` runs
    ///     ``flakyRepetitions`` times at least); its result says how many of them failed.
    ///   - programs: how many programs each generated clause (`generated.*`) runs, and their seed
    ///     (``GeneratedPrograms/standard`` by default).
    public static func run<A: PromiseAdapter>(
        _ adapter: A, clauses: [Clause] = Clause.all, timeout: Duration = defaultTimeout, stress: Bool? = nil,
        grace: Duration = defaultGrace, repetitions: Int = 1, programs: GeneratedPrograms = .standard
    ) async -> ConformanceReport {
        await run(
            adapter, clauses: clauses, timeout: timeout, stress: stress, grace: grace, repetitions: repetitions,
            programs: programs, caller: .swift)
    }

    /// ``run(_:clauses:timeout:stress:grace:repetitions:programs:)`` for `caller`, whom a failing program's report
    /// tells how to replay it.
    static func run<A: PromiseAdapter>(
        _ adapter: A, clauses: [Clause], timeout: Duration, stress: Bool?, grace: Duration, repetitions: Int,
        programs: GeneratedPrograms, caller: ProgramReplay.Caller
    ) async -> ConformanceReport {
        let erased = ErasedAdapter(adapter)
        let stalls = RunStalls()
        var results: [ClauseResult] = []
        for clause in clauses.map({ $0.with(programs) }) {
            results.append(
                await repeated(
                    clause, capabilities: erased.capabilities, flakyDepartures: erased.flakyDepartures,
                    asked: repetitions
                ) {
                    await run(
                        erased, clause, timeout: timeout, stress: stress ?? stressFromEnvironment, grace: grace,
                        caller: caller, stalls: stalls)
                })
        }
        return ConformanceReport(adapterName: adapter.name, capabilities: adapter.capabilities, results: results)
    }

    /// Runs one clause over the implementation behind `adapter`; `timeout` is the time limit of each of its cases. A
    /// clause declared in ``PromiseAdapter/flakyDepartures`` runs ``flakyRepetitions`` times.
    public static func run<A: PromiseAdapter>(
        _ adapter: A, clause: Clause, timeout: Duration = defaultTimeout, stress: Bool? = nil,
        grace: Duration = defaultGrace
    ) async -> ClauseResult {
        let erased = ErasedAdapter(adapter)
        return await repeated(
            clause, capabilities: erased.capabilities, flakyDepartures: erased.flakyDepartures, asked: 1
        ) {
            await run(erased, clause, timeout: timeout, stress: stress ?? stressFromEnvironment, grace: grace)
        }
    }

    static var stressFromEnvironment: Bool {
        ProcessInfo.processInfo.environment["PROMISES_STRESS"] == "1"
    }

    /// Runs one clause. `skipping` names top-level cases not to run (an earlier process ran them); `events` hears of
    /// each case as it starts and ends (a child process prints them for its parent).
    static func run(
        _ adapter: ErasedAdapter, _ clause: Clause, timeout: Duration, stress: Bool, grace: Duration,
        skipping: Set<String> = [], events: (@Sendable (CaseEvent) -> Void)? = nil,
        caller: ProgramReplay.Caller = .swift, stalls: RunStalls = RunStalls()
    ) async -> ClauseResult {
        if let skipped = skipped(clause, capabilities: adapter.capabilities) { return skipped }
        let errors =
            deviationErrors(adapter.deviations)
            + flakyDepartureErrors(adapter.flakyDepartures, deviations: adapter.deviations)
        guard errors.isEmpty else {
            return ClauseResult(clause: clause, status: .failed(errors.joined(separator: "; ")))
        }
        let clock = ContinuousClock()
        let start = clock.now
        let run = await execute(
            Attempt(
                clause: clause, adapter: adapter, replay: ProgramReplay(caller, for: adapter), timeout: timeout,
                stress: stress, grace: grace, events: events, stalls: stalls),
            skipping: skipping)
        let status =
            run.missingMembers.map { ClauseStatus.failed($0) }  // the adapter's own error: never a declared deviation
            ?? verdict(clause, deviations: adapter.deviations, cases: run.cases, outside: run.outside)
        var result = ClauseResult(
            clause: clause, status: status, duration: clock.now - start, graceWaits: run.graceWaits,
            assimilatedByHelper: run.usedAssimilationHelper, caseResults: run.cases)
        result.failuresOutsideCases = run.outside
        return result
    }

    /// The errors in an adapter's ``PromiseAdapter/deviations``: each key must be a clause id, a clause id, `#` and
    /// the name of one of that clause's ``Clause/cases``, or `generated#` and a clause id (a departure from that rule
    /// that only the generated programs show). Empty when every key is valid.
    public static func deviationErrors(_ deviations: [String: String]) -> [String] {
        deviations.keys.sorted().compactMap { key in
            let (id, caseName) = Deviation.split(key)
            if id == Deviation.generated {
                guard let rule = caseName, Clause.named(rule) != nil else {
                    return "\"\(key)\" in the deviations: after generated# comes the id of the rule's clause"
                }
                return nil
            }
            guard let clause = Clause.named(id) else {
                return "unknown clause id \"\(id)\" in the deviations (see Clause.all, or promise-conformance --list)"
            }
            if let caseName, !clause.cases.contains(caseName) {
                return "unknown case \"\(caseName)\" of \(id) in the deviations; its cases: "
                    + clause.cases.joined(separator: ", ")
            }
            return nil
        }
    }

    /// The result of a clause that is not run: it has no meaning in typed Swift, or needs a capability the adapter
    /// does not declare; nil for a clause to run.
    static func skipped(_ clause: Clause, capabilities: Capabilities) -> ClauseResult? {
        if let reason = clause.notMeaningful {
            return ClauseResult(clause: clause, status: .notApplicable("not meaningful in typed Swift: \(reason)"))
        }
        let missing = clause.requires.subtracting(capabilities)
        guard missing.isEmpty else {
            return ClauseResult(clause: clause, status: .notApplicable("needs capability \(missing)"))
        }
        if !clause.requiresOneOf.isEmpty && clause.requiresOneOf.intersection(capabilities).isEmpty {
            return ClauseResult(clause: clause, status: .notApplicable("needs one of \(clause.requiresOneOf)"))
        }
        return nil
    }

    /// The status of a clause whose top-level cases ended as `cases` (in the order they ran), given the deviations its
    /// adapter declares and what failed outside its cases (`outside`).
    ///
    /// - Declared for the whole clause: a deviation when anything failed (a case that crashed or hung says so in the
    ///   message), a failure ("declared deviation not observed") when nothing did.
    /// - Otherwise every problem is listed, in the order of the cases, `"<case>: <message>; <case>: <message>"`: each
    ///   case that failed, crashed or hung; each case declared as a deviation that did not show it (it passed or did
    ///   not run, or it crashed or hung, which shows nothing about what was declared); and each failure outside the
    ///   cases. With no problem, the declared cases that failed as declared make a deviation, and no case declared
    ///   makes a pass.
    static func verdict(
        _ clause: Clause, deviations: [String: String], cases: [CaseResult], outside: [String]
    ) -> ClauseStatus {
        let failures = cases.compactMap { result in result.message.map { "\(result.name): \($0)" } } + outside
        if let reason = deviations[clause.id] {
            return failures.isEmpty
                ? .failed("declared deviation not observed (declared: \(reason))")
                : .deviation("\(reason) (observed: \(failures.joined(separator: "; ")))")
        }
        let declared = Deviation.cases(of: clause, in: deviations)
        var problems: [String] = []
        var observed: [String: String] = [:]
        var deviated: [String] = []
        for result in cases {
            let direct = declared[result.name]
            let routedReason = direct == nil ? Deviation.routedReason(result.name, in: declared) : nil
            let reason = direct ?? routedReason
            switch (result.outcome, reason) {
            case (.passed, nil):
                break
            case (.passed, _?) where routedReason != nil:
                break  // the case showed its declared departure directly; a form of `then` may not show it
            case (.deviated(let message), _):
                deviated.append("\(result.name): \(message)")
            case (.passed, let reason?):
                problems.append("declared deviation not observed in case \(result.name) (declared: \(reason))")
            case (.failed(let message), nil):
                problems.append("\(result.name): \(message)")
            case (.failed(let message), _?):
                observed[result.name] = "\(result.name): \(message)"
            case (.crashed(let message), let reason), (.timedOut(let message), let reason):
                let what = if case .crashed = result.outcome { "crashed" } else { "hung" }
                problems.append(
                    "\(result.name): \(message)"
                        + (reason.map {
                            " (a deviation is declared for this case, \"\($0)\", but the case \(what) before its "
                                + "checks could show it: declared deviation not observed)"
                        } ?? ""))
            }
        }
        let ran = Set(cases.map(\.name))
        for name in clause.cases where declared[name] != nil && !ran.contains(name) {
            problems.append(
                "declared deviation not observed in case \(name): the case did not run (declared: \(declared[name]!))")
        }
        problems += outside
        if !problems.isEmpty {
            // A report of several lines (a generated program's) gets the lines after it a line of their own.
            return .failed(problems.joined(separator: problems.contains { $0.contains("\n") } ? "\n" : "; "))
        }
        if declared.isEmpty && deviated.isEmpty { return .passed }
        return .deviation(
            (declared.keys.sorted().map { "\($0): \(declared[$0] ?? "") (observed: \(observed[$0] ?? ""))" }
                + (deviated.first.map { example in
                    ["\(deviated.count) of \(cases.count) cases showed only declared departures, the first: \(example)"]
                } ?? []))
                .joined(separator: "; "))
    }

    /// What running a clause body showed: how each top-level case ended, what failed outside the cases, the grace
    /// waits; or, instead of running it, the members of its capabilities that the adapter does not implement.
    struct Execution: Sendable {
        var cases: [CaseResult] = []
        var outside: [String] = []
        var graceWaits = 0
        var usedAssimilationHelper = false
        var missingMembers: String?

        /// Adds what one thread of the clause did.
        mutating func absorb(_ state: CaseProgress.State) {
            cases += state.results
            graceWaits += state.graceWaits
            usedAssimilationHelper = usedAssimilationHelper || state.usedAssimilationHelper
        }
    }

    /// What a thread running a clause needs.
    struct Attempt: Sendable {
        let clause: Clause
        let adapter: ErasedAdapter
        let replay: ProgramReplay
        let timeout: Duration
        let stress: Bool
        let grace: Duration
        let events: (@Sendable (CaseEvent) -> Void)?
        let stalls: RunStalls
    }

    private static func execute(_ attempt: Attempt, skipping: Set<String>) async -> Execution {
        await withCheckedContinuation { continuation in
            run(attempt, skipping: skipping, soFar: Execution(), first: true) { continuation.resume(returning: $0) }
        }
    }

    /// Runs the clause body on a new thread, skipping the cases in `skipping`, and calls `done` with `soFar` and what
    /// the thread did, once. When the watchdog finds the thread stuck in a case past the case's deadline plus
    /// ``watchdogMargin``, the case is recorded as timed out, the thread is abandoned, and the cases not yet run go on
    /// on another thread (this function again), so that `done` is called once, when every case had its turn.
    private static func run(
        _ attempt: Attempt, skipping: Set<String>, soFar: Execution, first: Bool,
        done: @escaping @Sendable (Execution) -> Void
    ) {
        let caseTimeout = attempt.timeout.dispatchInterval
        let progress = CaseProgress(deadline: .now() + caseTimeout, events: attempt.events)
        let thread = Thread {
            let context = ClauseContext(
                adapter: attempt.adapter, replay: attempt.replay, caseTimeout: caseTimeout, progress: progress,
                stress: attempt.stress,
                grace: attempt.grace.seconds, cycleDetectionLimit: cycleDetectionLimit.seconds, skipping: skipping,
                clauseID: attempt.clause.id, stalls: attempt.stalls)
            // A generated clause uses every capability declared: check each has its member.
            let needed = attempt.clause.family == nil ? attempt.clause.requires : attempt.adapter.capabilities
            let missing = first ? AdapterMember.missing(in: attempt.adapter, for: needed) : []
            var outside: String?
            if missing.isEmpty {
                do {
                    try attempt.clause.body(context)
                } catch let failure as ClauseFailure {
                    outside = failure.message
                } catch {
                    outside = "unexpected error \(error)"
                }
            }
            guard let state = progress.finish() else { return }  // the watchdog gave up on this thread
            var execution = soFar
            execution.absorb(state)
            if let outside { execution.outside.append(outside) }
            if !missing.isEmpty { execution.missingMembers = AdapterMember.failureMessage(missing) }
            done(execution)
        }
        thread.name = "PromiseConformance \(attempt.clause.id)"
        thread.stackSize = clauseStackSize
        thread.start()
        let message =
            "timed out after \(attempt.timeout): the case did not return (the implementation hung in a call, or a "
            + "handler blocked), and the clause went on with its other cases"
        watch(progress, margin: watchdogMargin.dispatchInterval, message: message) { state in
            var execution = soFar
            execution.absorb(state)
            let ran = skipping.union(state.results.map(\.name))
            let remaining = attempt.clause.cases.filter { !ran.contains($0) }
            if state.current == nil {
                let after = state.results.last.map { " (after case \($0.name))" } ?? ""
                execution.outside.append(
                    "timed out after \(attempt.timeout) outside its cases\(after): the clause did not return")
            }
            // Another thread for the cases left, as long as this one ended one at least (so that this ends).
            guard !remaining.isEmpty, !state.results.isEmpty else { return done(execution) }
            run(attempt, skipping: ran, soFar: execution, first: false, done: done)
        }
    }

    /// Calls `stuck` once, if the thread behind `progress` is still in a case (or between cases) `margin` after its
    /// deadline, outside the suite's own waits (``CaseProgress/waiting(_:)``); looks again at each new deadline, and
    /// stops once the thread finished.
    private static func watch(
        _ progress: CaseProgress, margin: DispatchTimeInterval, message: String,
        stuck: @escaping @Sendable (CaseProgress.State) -> Void
    ) {
        DispatchQueue.global().asyncAfter(deadline: progress.earliestAbandon(after: margin)) {
            if let state = progress.abandon(after: margin, message: message) { return stuck(state) }
            if !progress.snapshot.finished { watch(progress, margin: margin, message: message, stuck: stuck) }
        }
    }
}

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension Duration {
    /// The same length as a Dispatch interval (to the nanosecond).
    var dispatchInterval: DispatchTimeInterval {
        let (seconds, attoseconds) = components
        return .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    }

    /// The same length in seconds, for `Thread.sleep`, JSON and the command line.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
