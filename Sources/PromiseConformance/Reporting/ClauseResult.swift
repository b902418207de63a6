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
    /// The names of the clause's ``Clause/cases`` it ran, in order: all of them when it passed, those up to the one
    /// that failed when it failed, none when it did not run (not applicable, crashed, or an adapter error).
    public let casesRun: [String]

    /// Creates a result.
    public init(
        clause: Clause, status: ClauseStatus, duration: Duration = .zero, graceWaits: Int = 0,
        assimilatedByHelper: Bool = false, casesRun: [String] = []
    ) {
        self.clause = clause
        self.status = status
        self.duration = duration
        self.graceWaits = graceWaits
        self.assimilatedByHelper = assimilatedByHelper
        self.casesRun = casesRun
    }

    /// `id title: status`.
    public var description: String { "\(clause.id) \(clause.title): \(status)" }
}
