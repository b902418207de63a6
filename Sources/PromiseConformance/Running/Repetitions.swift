// Repetitions: one verdict for a clause that ran several times. A clause runs once, unless the run asks for more
// (`--repeat`, `repetitions:`) or the adapter declares it a flaky departure (``PromiseAdapter/flakyDepartures``), which
// runs it ``Conformance/flakyRepetitions`` times at least. The verdict says how many of the repetitions failed, and a
// failure that shows in every repetition stays a failure, whatever is declared.

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension Conformance {
    /// How many times a clause declared in ``PromiseAdapter/flakyDepartures`` runs, at least: 10.
    public static let flakyRepetitions = 10

    /// How many times to run `clause`: `asked`, or ``flakyRepetitions`` if more and the clause is declared flaky.
    static func repetitions(of clause: Clause, flakyDepartures: [String: String], asked: Int) -> Int {
        flakyDepartures[clause.id] == nil ? max(asked, 1) : max(asked, flakyRepetitions)
    }

    /// Runs `clause` as many times as it should run (``repetitions(of:flakyDepartures:asked:)``; once when it is not
    /// run at all, as it is then skipped each time), each with `once`, and combines the results.
    static func repeated(
        _ clause: Clause, capabilities: Capabilities, flakyDepartures: [String: String], asked: Int,
        _ once: () async -> ClauseResult
    ) async -> ClauseResult {
        let count =
            skipped(clause, capabilities: capabilities) == nil
            ? repetitions(of: clause, flakyDepartures: flakyDepartures, asked: asked) : 1
        var results: [ClauseResult] = []
        for _ in 0..<count { results.append(await once()) }
        return combine(results, flaky: flakyDepartures[clause.id])
    }

    /// The errors in an adapter's ``PromiseAdapter/flakyDepartures``: each key must be a clause id (a flaky departure
    /// is declared for a whole clause), and a clause cannot be declared both a deviation and a flaky departure. Empty
    /// when every key is valid.
    public static func flakyDepartureErrors(_ flakyDepartures: [String: String], deviations: [String: String])
        -> [String]
    {
        let deviating = Set(deviations.keys.map { Deviation.split($0).id })
        return flakyDepartures.keys.sorted().compactMap { id in
            if Deviation.split(id).caseName != nil {
                return "a flaky departure names a whole clause, not a case: \"\(id)\""
            }
            guard Clause.named(id) != nil else {
                return "unknown clause id \"\(id)\" in the flaky departures (see Clause.all, or --list)"
            }
            if deviating.contains(id) {
                return "\(id) is declared both a deviation and a flaky departure; a deviation shows every time"
            }
            return nil
        }
    }

    /// One result for a clause that ran `results.count` times (at least once), given the reason it is declared a
    /// flaky departure, if it is.
    ///
    /// - Declared flaky: no failure is a pass; failures in some repetitions but not all are the declared departure,
    ///   "failed in k of n repetitions"; a failure in every repetition is a failure, not a flaky departure.
    /// - Not declared: any failure is a failure, "failed in k of n repetitions" when it ran more than once; without
    ///   one, the result of the first repetition (every one passed, or showed the declared deviation).
    static func combine(_ results: [ClauseResult], flaky reason: String?) -> ClauseResult {
        precondition(!results.isEmpty, "a clause runs at least once")
        let first = results[0]
        guard results.count > 1 else { return first }  // its own verdict, with its cases' results
        let failures = results.compactMap { result -> String? in
            guard case .failed(let message) = result.status else { return nil }
            return message
        }
        let count = results.count
        let status: ClauseStatus
        switch (reason, failures.first) {
        case (_, nil):
            status = first.status
        case (nil, let failure?):
            status = .failed(
                count == 1 ? failure : "failed in \(failures.count) of \(count) repetitions; first: \(failure)")
        case (let reason?, let failure?) where failures.count < count:
            status = .deviation(
                "flaky, as declared (\(reason)): failed in \(failures.count) of \(count) repetitions; first: \(failure)"
            )
        case (let reason?, let failure?):
            status = .failed(
                "failed in every one of \(count) repetitions, so not a flaky departure (declared: \(reason)): \(failure)"
            )
        }
        var casesRun: [String] = []
        for result in results {
            for name in result.casesRun where !casesRun.contains(name) { casesRun.append(name) }
        }
        return ClauseResult(
            clause: first.clause, status: status, duration: results.reduce(.zero) { $0 + $1.duration },
            graceWaits: results.reduce(0) { $0 + $1.graceWaits },
            assimilatedByHelper: results.contains { $0.assimilatedByHelper }, casesRun: casesRun,
            caseResults: (results.first { $0.status.isFailure } ?? first).caseResults)
    }
}
