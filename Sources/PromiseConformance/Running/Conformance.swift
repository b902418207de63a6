import Dispatch
import Foundation

/// Runs clauses over a promise implementation.
///
/// Each clause runs on a fresh thread with a known stack size (``clauseStackSize``), so a stack overflow shows
/// instead of hiding in a large main-thread stack, and waits with semaphores bounded by the clause's timeout. When a
/// clause does not finish in time (the implementation hangs, or a handler blocks) it fails with "timed out", its
/// thread is abandoned, and the run goes on with the next clause. Nothing in the suite needs `DispatchQueue.main` to
/// be served, nor the Swift concurrency pool to have a free thread.
///
/// Set the environment variable `PROMISES_STRESS=1` to run the race clauses with many more iterations.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
public enum Conformance {
    /// The stack size of the thread each clause runs on: 1 MiB.
    public static let clauseStackSize = 1 << 20

    /// The default time limit of one clause.
    ///
    /// It guards against an implementation that hangs: a clause that is still running when it expires fails with
    /// "timed out". A clause that does heavy work (``Clause/all``'s `swift.deepChain` builds chains of 20,000 and
    /// 100,000 handlers) needs more of it on a slow machine, or on one whose cores are busy with other work.
    public static let defaultTimeout: Duration = .seconds(30)

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
    ///   - timeout: the time limit of each clause.
    ///   - stress: run the race clauses with many more iterations; defaults to `PROMISES_STRESS=1` in the environment.
    ///   - grace: how long a clause waits to see that something does not happen (``defaultGrace``).
    ///   - repetitions: how many times each clause runs (a clause declared in ``PromiseAdapter/flakyDepartures`` runs
    ///     ``flakyRepetitions`` times at least); its result says how many of them failed.
    public static func run<A: PromiseAdapter>(
        _ adapter: A, clauses: [Clause] = Clause.all, timeout: Duration = defaultTimeout, stress: Bool? = nil,
        grace: Duration = defaultGrace, repetitions: Int = 1
    ) async -> ConformanceReport {
        let erased = ErasedAdapter(adapter)
        var results: [ClauseResult] = []
        for clause in clauses {
            let count =
                skipped(clause, capabilities: erased.capabilities) == nil
                ? Self.repetitions(of: clause, flakyDepartures: erased.flakyDepartures, asked: repetitions) : 1
            var runs: [ClauseResult] = []
            for _ in 0..<count {
                runs.append(
                    await run(erased, clause, timeout: timeout, stress: stress ?? stressFromEnvironment, grace: grace))
            }
            results.append(combine(runs, flaky: erased.flakyDepartures[clause.id]))
        }
        return ConformanceReport(adapterName: adapter.name, capabilities: adapter.capabilities, results: results)
    }

    /// Runs one clause over the implementation behind `adapter`.
    public static func run<A: PromiseAdapter>(
        _ adapter: A, clause: Clause, timeout: Duration = defaultTimeout, stress: Bool? = nil,
        grace: Duration = defaultGrace
    ) async -> ClauseResult {
        await run(
            ErasedAdapter(adapter), clause, timeout: timeout, stress: stress ?? stressFromEnvironment, grace: grace)
    }

    static var stressFromEnvironment: Bool {
        ProcessInfo.processInfo.environment["PROMISES_STRESS"] == "1"
    }

    static func run(
        _ adapter: ErasedAdapter, _ clause: Clause, timeout: Duration, stress: Bool, grace: Duration
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
        let caseDeviations = Deviation.cases(of: clause, in: adapter.deviations)
        let run = await execute(
            clause, adapter, caseDeviations: caseDeviations, timeout: timeout, stress: stress, grace: grace)
        let status: ClauseStatus
        if let missing = run.missingMembers {
            status = .failed(missing)  // the adapter's own error: never taken for a declared deviation
        } else if let declared = adapter.deviations[clause.id] {
            status = self.status(declared: declared, failure: run.failure)
        } else if let failure = run.failure {
            status = .failed(failure)  // a case not declared as a deviation: never hidden by those that are
        } else if let unobserved = caseDeviations.first(where: { run.observed[$0.key] == nil }) {
            status = .failed(
                "declared deviation not observed in case \(unobserved.key) (declared: \(unobserved.value))")
        } else if !caseDeviations.isEmpty {
            status = .deviation(
                caseDeviations.keys.sorted().map {
                    "\($0): \(caseDeviations[$0] ?? "") (observed: \(run.observed[$0] ?? ""))"
                }
                .joined(separator: "; "))
        } else {
            status = .passed
        }
        return ClauseResult(
            clause: clause, status: status, duration: clock.now - start, graceWaits: run.graceWaits,
            assimilatedByHelper: run.usedAssimilationHelper, casesRun: run.casesRun)
    }

    /// The errors in an adapter's ``PromiseAdapter/deviations``: each key must be a clause id, or a clause id, `#` and
    /// the name of one of that clause's ``Clause/cases``. Empty when every key is valid.
    public static func deviationErrors(_ deviations: [String: String]) -> [String] {
        deviations.keys.sorted().compactMap { key in
            let (id, caseName) = Deviation.split(key)
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
        return nil
    }

    /// The status of a clause that ran, given the deviation its adapter declares for it and what failed, if anything.
    static func status(declared reason: String?, failure: String?) -> ClauseStatus {
        switch (reason, failure) {
        case (nil, nil): .passed
        case (nil, let message?): .failed(message)
        case (let reason?, nil): .failed("declared deviation not observed (declared: \(reason))")
        case (let reason?, let observed?): .deviation("\(reason) (observed: \(observed))")
        }
    }

    /// What running a clause body showed: the failure message of a case not declared as a deviation, the grace
    /// waits, the departures seen in the cases declared as deviations (case name → message), and the cases entered;
    /// or, instead of running it, the members of its capabilities that the adapter does not implement.
    struct Execution: Sendable {
        var failure: String?
        var graceWaits = 0
        var observed: [String: String] = [:]
        var usedAssimilationHelper = false
        var casesRun: [String] = []
        var missingMembers: String?
    }

    private static func execute(
        _ clause: Clause, _ adapter: ErasedAdapter, caseDeviations: [String: String], timeout: Duration,
        stress: Bool, grace: Duration
    ) async -> Execution {
        let deadline = DispatchTime.now() + timeout.dispatchInterval
        return await withCheckedContinuation { continuation in
            let once = Once()
            let thread = Thread {
                let context = ClauseContext(
                    adapter: adapter, deadline: deadline, stress: stress, grace: grace.seconds,
                    cycleDetectionLimit: cycleDetectionLimit.seconds, deviatingCases: Set(caseDeviations.keys))
                let missing = AdapterMember.missing(in: adapter, for: clause.requires)
                var message: String?
                if missing.isEmpty {
                    do {
                        try clause.body(context)
                    } catch let failure as ClauseFailure {
                        message = failure.message
                    } catch {
                        message = "unexpected error \(error)"
                    }
                }
                if once.claim() {
                    continuation.resume(
                        returning: Execution(
                            failure: message, graceWaits: context.graceWaits, observed: context.observedDeviations,
                            usedAssimilationHelper: context.usedAssimilationHelper, casesRun: context.casesRun,
                            missingMembers: missing.isEmpty ? nil : AdapterMember.failureMessage(missing)))
                }
            }
            thread.name = "PromiseConformance \(clause.id)"
            thread.stackSize = clauseStackSize
            thread.start()
            // The watchdog: a clause stuck outside the suite's own waits (in the implementation) still ends.
            DispatchQueue.global().asyncAfter(deadline: deadline + .seconds(2)) {
                if once.claim() {
                    continuation.resume(
                        returning: Execution(failure: "timed out after \(timeout) (the clause did not return)"))
                }
            }
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
