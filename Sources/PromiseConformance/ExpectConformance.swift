import Testing

/// Runs one clause over `adapter` and records a Swift Testing issue when it fails.
///
/// Deviations the adapter declares, and clauses it lacks the capability for, are not issues. Use it with a
/// parameterized test to get one test case per clause:
///
/// ```swift
/// @Test(arguments: Clause.all)
/// func conformance(_ clause: Clause) async {
///     await expectConformance(MyAdapter(), clause)
/// }
/// ```
///
/// - Returns: the clause's result, for further checks.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
@discardableResult
public func expectConformance<A: PromiseAdapter>(
    _ adapter: A, _ clause: Clause, timeout: Duration = Conformance.defaultTimeout,
    sourceLocation: SourceLocation = #_sourceLocation
) async -> ClauseResult {
    let result = await Conformance.run(adapter, clause: clause, timeout: timeout)
    if case .failed(let message) = result.status {
        Issue.record("\(adapter.name) fails \(clause.id) (\(clause.title)): \(message)", sourceLocation: sourceLocation)
    }
    return result
}

/// Runs `clauses` over `adapter` and records one Swift Testing issue per failed clause.
///
/// ```swift
/// @Test func conformance() async {
///     await expectConformance(MyAdapter())
/// }
/// ```
///
/// - Returns: the report, for further checks.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
@discardableResult
public func expectConformance<A: PromiseAdapter>(
    _ adapter: A, clauses: [Clause] = Clause.all, timeout: Duration = Conformance.defaultTimeout,
    sourceLocation: SourceLocation = #_sourceLocation
) async -> ConformanceReport {
    let report = await Conformance.run(adapter, clauses: clauses, timeout: timeout)
    for failure in report.failures {
        Issue.record(
            "\(adapter.name) fails \(failure.clause.id) (\(failure.clause.title)): \(failure.status.message ?? "")",
            sourceLocation: sourceLocation)
    }
    return report
}

extension Clause: CustomTestStringConvertible {
    /// `id title`, how a parameterized test names the case.
    public var testDescription: String { description }
}
