/// How an implementation fared on one clause.
public enum ClauseStatus: Sendable, Hashable, CustomStringConvertible {
    /// Every case of the clause held.
    case passed
    /// A case did not hold (or timed out, or a declared deviation was not observed); the message says which and how.
    case failed(String)
    /// The implementation departs from the clause by design, as its adapter declares; the reason and what was observed.
    case deviation(String)
    /// The clause needs a capability the adapter does not declare.
    case notApplicable(String)

    /// The matrix cell: `pass`, `FAIL`, `deviation` or `n/a`.
    public var cell: String {
        switch self {
        case .passed: "pass"
        case .failed: "FAIL"
        case .deviation: "deviation"
        case .notApplicable: "n/a"
        }
    }

    /// The message of a failure, deviation or non-applicable clause; nil when passed.
    public var message: String? {
        switch self {
        case .passed: nil
        case .failed(let message), .deviation(let message), .notApplicable(let message): message
        }
    }

    /// Whether this is ``failed(_:)``.
    public var isFailure: Bool {
        if case .failed = self { return true }
        return false
    }

    /// The cell, followed by the message if any.
    public var description: String {
        message.map { "\(cell): \($0)" } ?? cell
    }
}

/// The result of one clause for one implementation.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
public struct ClauseResult: Sendable, CustomStringConvertible {
    /// The clause.
    public let clause: Clause
    /// How the implementation fared.
    public let status: ClauseStatus
    /// How long the clause took to run.
    public let duration: Duration
    /// How many times the clause waited the grace period to see that something did not happen
    /// (``Conformance/defaultGrace``); 0 for a clause that only waits for what must happen.
    public let graceWaits: Int
    /// Whether the clause's thenables went through ``Assimilation/resolve(_:_:)``, the suite's own A+ 2.3.3
    /// procedure, rather than the library's: the verdict is then about that helper (the matrix marks it `(helper)`).
    public let assimilatedByHelper: Bool
    /// The names of the clause's ``Clause/cases`` it ran, in the order they ran: every case, whether it held, failed,
    /// crashed the process or hung (a failing case does not stop the clause); none when the clause did not run (not
    /// applicable, or an adapter error). A case is missing only when something outside the cases stopped the clause
    /// (a crash before its first case, say).
    public let casesRun: [String]
    /// How each case in ``casesRun`` ended, in the same order: held, failed a check, crashed the process, or hung
    /// (``CaseResult``). Empty for a clause that did not run.
    public let caseResults: [CaseResult]
    /// What failed outside the clause's cases (before the first, between two, after the last): what a parent process
    /// needs, beside ``caseResults``, to sum up a clause whose cases ran in several child processes.
    var failuresOutsideCases: [String] = []

    /// Creates a result. `casesRun` defaults to the names of `caseResults`.
    public init(
        clause: Clause, status: ClauseStatus, duration: Duration = .zero, graceWaits: Int = 0,
        assimilatedByHelper: Bool = false, casesRun: [String] = [], caseResults: [CaseResult] = []
    ) {
        self.clause = clause
        self.status = status
        self.duration = duration
        self.graceWaits = graceWaits
        self.assimilatedByHelper = assimilatedByHelper
        self.casesRun = casesRun.isEmpty ? caseResults.map(\.name) : casesRun
        self.caseResults = caseResults
    }

    /// `id title: status`.
    public var description: String { "\(clause.id) \(clause.title): \(status)" }
}
