import PromiseConformance
import Testing

/// How long the tests give each case of a clause: the hang guard, since the clauses' work shares the cores with every other
/// test (and under the thread sanitizer, which slows the 100,000-step chains of `swift.deepChain` by an order of
/// magnitude, with a tenth of their speed).
extension TestEnvironment {
    /// The time limit of each case of a clause in the tests: ``hangGuard``.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    public static var clauseTimeout: Duration { .seconds(hangGuard) }

    /// Checks the failure message of a clause whose process overflowed its stack: killed by `SIGSEGV`, or, under the
    /// address sanitizer, which catches the overflow itself, exited with status 1 after its stack-overflow report.
    public static func expectStackOverflowCrash(_ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
        if isAddressSanitized {
            #expect(message.contains("exited with status 1"), "\(message)", sourceLocation: sourceLocation)
            #expect(message.contains("AddressSanitizer: stack-overflow"), "\(message)", sourceLocation: sourceLocation)
        } else {
            #expect(message.contains("signal 11 (SIGSEGV)"), "\(message)", sourceLocation: sourceLocation)
        }
    }
}

/// One clause over one adapter, as the package's tests run the conformance suite: the verdict must be what the adapter
/// declares, a failure is recorded as an issue, and the result is returned for further checks.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
public enum ClauseCheck {
    /// The time limit of `clause` for `adapter`: ``TestEnvironment/clauseTimeout``, or, for a clause the adapter
    /// declares as a deviation, 5 s (20 s under the thread sanitizer), for each of its cases. A declared deviation that
    /// hangs (a task waiting for itself) shows as soon as its case times out, and the shorter limit keeps such clauses
    /// from dominating the run.
    public static func timeout(_ adapter: some PromiseAdapter, _ clause: Clause) -> Duration {
        guard adapter.deviations[clause.id] != nil else { return TestEnvironment.clauseTimeout }
        return TestEnvironment.isThreadSanitized ? .seconds(20) : .seconds(5)
    }

    /// Runs `clause` over `adapter` in this process (with ``timeout(_:_:)`` unless `timeout` is given) and checks
    /// the verdict: passed only where no deviation is declared, a deviation only where one (or a flaky departure) is,
    /// not applicable only where the clause has no meaning in typed Swift or needs a capability the adapter does not
    /// declare; and every case the clause ran is among its `cases`.
    @discardableResult
    public static func run(
        _ adapter: some PromiseAdapter, _ clause: Clause, timeout: Duration? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async -> ClauseResult {
        let result = await expectConformance(
            adapter, clause, timeout: timeout ?? self.timeout(adapter, clause), sourceLocation: sourceLocation)
        expectDeclared(result, adapter, sourceLocation: sourceLocation)
        return result
    }

    /// ``run(_:_:timeout:sourceLocation:)`` with the clause in a child process of the test
    /// (``Conformance/runIsolated(_:clause:timeout:stress:grace:sourceLocation:)``), for an adapter whose promise may
    /// crash the process.
    @discardableResult
    public static func runIsolated(
        _ adapter: some PromiseAdapter & Codable, _ clause: Clause, timeout: Duration? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async -> ClauseResult {
        let result = await expectIsolatedConformance(
            adapter, clause, timeout: timeout ?? self.timeout(adapter, clause), sourceLocation: sourceLocation)
        expectDeclared(result, adapter, sourceLocation: sourceLocation)
        return result
    }

    private static func expectDeclared(
        _ result: ClauseResult, _ adapter: some PromiseAdapter, sourceLocation: SourceLocation
    ) {
        let clause = result.clause
        // Each case the clause ran is one it declares (the names a deviation key may use are the ones that run), or
        // one of those it ran through an entry point of the adapter: "via NAME: " and the case.
        let viaEntryPoints = adapter.entryPoints.flatMap { entry in clause.cases.map { "via \(entry.name): \($0)" } }
        #expect(
            Set(result.casesRun).isSubset(of: clause.cases + viaEntryPoints),
            "\(clause.id) ran cases \(result.casesRun), not all among its cases \(clause.cases)",
            sourceLocation: sourceLocation)
        switch result.status {
        case .passed:
            #expect(adapter.deviations[clause.id] == nil, sourceLocation: sourceLocation)
        case .deviation:
            // A generated clause deviates where its programs broke only rules the adapter declares (by any key); a
            // clause declared flaky where it failed in some of its repetitions.
            #expect(
                clause.programs != nil
                    ? !adapter.deviations.isEmpty
                    : adapter.deviations[clause.id] != nil || adapter.flakyDepartures[clause.id] != nil,
                sourceLocation: sourceLocation)
        case .notApplicable:
            #expect(!clause.applies(to: adapter.capabilities), sourceLocation: sourceLocation)
        case .failed:
            break  // expectConformance recorded the issue
        }
    }
}
