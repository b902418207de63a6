/// The results of running clauses over one implementation.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
public struct ConformanceReport: Sendable, CustomStringConvertible {
    /// The adapter's name.
    public let adapterName: String
    /// The capabilities the adapter declared.
    public let capabilities: Capabilities
    /// One result per clause run, in the order the clauses were given.
    public let results: [ClauseResult]

    /// Creates a report.
    public init(adapterName: String, capabilities: Capabilities, results: [ClauseResult]) {
        self.adapterName = adapterName
        self.capabilities = capabilities
        self.results = results
    }

    /// The result for the clause with this id, if it was run.
    public subscript(id: String) -> ClauseResult? {
        results.first { $0.clause.id == id }
    }

    /// The clauses that failed (not counting declared deviations that were observed).
    public var failures: [ClauseResult] { results.filter { $0.status.isFailure } }
    /// The clauses that passed.
    public var passed: [ClauseResult] { results.filter { $0.status == .passed } }
    /// The clauses departed from by design, as declared.
    public var deviations: [ClauseResult] {
        results.filter {
            if case .deviation = $0.status { return true }
            return false
        }
    }
    /// The clauses that need a capability the adapter does not declare.
    public var notApplicable: [ClauseResult] {
        results.filter {
            if case .notApplicable = $0.status { return true }
            return false
        }
    }

    /// Whether no clause failed (deviations and non-applicable clauses do not count as failures).
    public var isConforming: Bool { failures.isEmpty }

    /// One line: `name: 40 passed, 1 failed, 2 deviations, 3 not applicable`.
    public var summary: String {
        "\(adapterName): \(passed.count) passed, \(failures.count) failed, \(deviations.count) deviations, "
            + "\(notApplicable.count) not applicable"
    }

    /// The summary, then one line per clause that did not pass, with its message.
    public var description: String {
        ([summary] + results.filter { $0.status != .passed }.map { "  \($0)" }).joined(separator: "\n")
    }
}
