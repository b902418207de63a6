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
    /// The clauses that did not run: those that need a capability the adapter does not declare, and those that have
    /// no meaning in typed Swift.
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

    /// The clauses that did not run, for a test to show, or nil when every clause ran: `3 of 47 clauses not applicable
    /// to MyPromise: 2.2.5 (Swift closures have no `this` ...); ...`.
    ///
    /// XCTest has no way to mark part of a test as skipped: throw `XCTSkip(message)` with it after the assertions, and
    /// the test is reported as skipped with this list when nothing failed (and failed when something did), instead of
    /// passing as if every clause had run.
    public var notApplicableMessage: String? {
        guard !notApplicable.isEmpty else { return nil }
        let clauses = notApplicable.map { "\($0.clause.id) (\($0.status.message ?? ""))" }
        return "\(notApplicable.count) of \(results.count) clauses not applicable to \(adapterName): "
            + clauses.joined(separator: "; ")
    }

    /// The summary, then one line per clause that did not pass, with its message.
    public var description: String {
        ([summary] + results.filter { $0.status != .passed }.map { "  \($0)" }).joined(separator: "\n")
    }
}
