import Dispatch

/// The bookkeeping of a clause's cases: runs each named case, names the failures inside it after it, and records how
/// each top-level case ended.
///
/// Each top-level case (``inCase(_:_:)`` outside any other case) has a deadline of its own, ``caseTimeout`` after it
/// starts, and ends on its own: a failure inside it is recorded as its ``CaseResult`` and the clause goes on with its
/// next case. ``progress`` is what the watchdog sees of it. Only the clause's thread runs cases (and changes the name
/// of the running one), which is why it is `@unchecked Sendable`.
final class CaseRunner: @unchecked Sendable {
    /// The id of the clause whose cases it runs.
    let clauseID: String
    /// The stalls of the run the clause is part of: a top-level case that failed waiting for what must happen, where
    /// the adapter declares no departure, is one.
    let stalls: RunStalls
    /// The case the clause thread is in, its deadline, and how the cases so far ended: written by this thread, read by
    /// the watchdog.
    let progress: CaseProgress
    /// The time limit of each top-level case: its deadline is this long after it starts.
    let caseTimeout: DispatchTimeInterval
    /// The departures the adapter declares (``PromiseAdapter/deviations``), by clause id or clause and case.
    private let deviations: [String: String]
    /// The clauses the adapter declares flaky (``PromiseAdapter/flakyDepartures``), by id.
    private let flakyDepartures: [String: String]
    /// The top-level cases not to run: those an earlier run of the clause already ran (a crash or a hang ended it).
    private let skipping: Set<String>
    /// The case being run, with its enclosing cases (`serial queue, already-fulfilled`); nil between cases.
    private var caseName: String?
    /// The entry point whose name the top-level cases take, "via NAME: case", while ``routed(via:_:)`` runs.
    private var via: String?

    init(
        clauseID: String, adapter: ErasedAdapter, stalls: RunStalls, progress: CaseProgress,
        caseTimeout: DispatchTimeInterval, skipping: Set<String>
    ) {
        self.clauseID = clauseID
        self.stalls = stalls
        self.progress = progress
        self.caseTimeout = caseTimeout
        self.deviations = adapter.deviations
        self.flakyDepartures = adapter.flakyDepartures
        self.skipping = skipping
    }

    /// A failure with `message`, named after the running case; `stalled` when a wait for something that must happen
    /// ran out of time (``RunStalls``).
    func failure(_ message: String, stalled: Bool = false) -> ClauseFailure {
        ClauseFailure(message: caseName.map { "\($0): \(message)" } ?? message, stalled: stalled)
    }

    /// Runs one named case; a failure inside is reported with the case's name.
    ///
    /// A top-level case (one not inside another) is run on its own: it gets a fresh deadline, ``caseTimeout`` from
    /// now; a failure inside it ends it, is recorded as its ``CaseResult`` in ``progress``, and does not stop the
    /// clause, which goes on with its next case. A top-level case in ``skipping``, or any once the watchdog has
    /// abandoned this thread, is not run. A nested case only adds its name to the failures inside it.
    func inCase(_ name: String, _ body: () throws -> Void) throws {
        if let outer = caseName {
            caseName = "\(outer), \(name)"
            defer { caseName = outer }
            return try body()
        }
        let name = via.map { RoutedCaseName.of(name, via: $0) } ?? name
        guard !skipping.contains(name), progress.start(name, deadline: .now() + caseTimeout) else { return }
        caseName = name
        let outcome: CaseResult.Outcome
        do {
            try body()
            outcome = .passed
        } catch let failure as ClauseFailure {
            outcome = .failed(Self.withoutCaseName(failure.message, name))
            if failure.stalled, !declaresDeparture(inCase: name) { stalls.record("\(clauseID), \(failure.message)") }
        } catch let departure as DeclaredDeparture {
            outcome = .deviated(departure.message)
        } catch {
            outcome = .failed("unexpected error \(error)")
        }
        caseName = nil
        progress.end(CaseResult(name: name, outcome: outcome), nextDeadline: .now() + caseTimeout)
    }

    /// Runs `body` with each top-level case named "via NAME: case", NAME being `entryName` (``Clause/routed(_:)``).
    func routed(via entryName: String, _ body: () throws -> Void) rethrows {
        via = entryName
        defer { via = nil }
        try body()
    }

    /// Notes that a thenable of the clause went through ``Assimilation/resolve(_:_:)``: the clause's result says so.
    func noteAssimilationHelper() {
        progress.update { $0.usedAssimilationHelper = true }
    }

    /// Whether the adapter declares a departure from this clause, or from its case `name` (directly, or through an
    /// entry point), or declares the clause flaky: a wait that runs out there is what it declared, not a stall.
    private func declaresDeparture(inCase name: String) -> Bool {
        guard flakyDepartures[clauseID] == nil, deviations[clauseID] == nil else { return true }
        let declared = Deviation.cases(of: clauseID, in: deviations)
        return declared[name] != nil || Deviation.routedReason(name, in: declared) != nil
    }

    /// `message` without the `name: ` (or `name, `, before a nested case's name) that ``failure(_:stalled:)`` put
    /// first.
    private static func withoutCaseName(_ message: String, _ name: String) -> String {
        for prefix in [name + ": ", name + ", "] where message.hasPrefix(prefix) {
            return String(message.dropFirst(prefix.count))
        }
        return message
    }
}
