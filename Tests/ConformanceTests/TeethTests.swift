import ConformanceFixtures
import PromiseConformance
import TestSupport
import Testing

/// The suite has teeth: each deliberately broken promise fails exactly the clauses its one flaw breaks.
@Suite struct Teeth {
    /// The clauses that need no capability and are run, i.e. those a `FlawedAdapter` is checked against.
    static let coreClauses = Set(Clause.all.filter { $0.requires.isEmpty && $0.notMeaningful == nil }.map(\.id))

    static let expectedFailures: [Flaw: Set<String>] = [
        // Every handler registered before settling runs twice: the exactly-once and in-order clauses.
        .callsHandlerTwice: [
            "2.2.2.3", "2.2.3.3", "2.2.6.1", "2.2.6.2", "swift.race", "swift.concurrentRegistration",
        ],
        // Only A+ 2.2.4: the other clauses accept a handler that ran early, as long as it ran right.
        .synchronousHandlers: ["2.2.4"],
        // Every clause but 2.3.1 observes some already-settled promise, and times out waiting for its handler.
        .dropsLateHandlers: coreClauses.subtracting(["2.3.1"]),
        // A settled state changes: the state clauses, and the race between resolvers.
        .secondResolutionWins: ["2.1.2.1", "2.1.2.2", "2.1.3.1", "2.1.3.2", "swift.race"],
        // The pass-through of a rejection, also along a 100,000-step chain without onRejected.
        .rejectionBecomesFulfilment: ["2.2.1.2", "2.2.7.4", "swift.deepChain"],
        // Nothing it makes is ever freed: the settled promises, and the dropped chain.
        .retainCycle: ["swift.release", "swift.deepChain"],
        .racyResolution: ["swift.race"],
        // Dropping the 100,000-link unsettled chain overflows the clause's stack: the process dies of SIGSEGV (under the
        // address sanitizer, exits with its stack-overflow report).
        .recursiveRelease: ["swift.deepChain"],
    ]

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test(arguments: Flaw.allCases)
    func failsExactlyTheClausesItBreaks(_ flaw: Flaw) async throws {
        // A flaw that drops handlers makes every clause it breaks wait for its whole time limit: keep that short for
        // those. No load can make a dropped handler run, so they fail whatever the limit; the one clause expected to
        // pass gets the hang guard like any other.
        let report: ConformanceReport
        if flaw == .dropsLateHandlers {
            let adapter = FlawedAdapter(flaw: flaw)
            let passing = Clause.all.filter { $0.id == "2.3.1" }
            let short = await Conformance.run(
                adapter, clauses: Clause.all.filter { $0.id != "2.3.1" }, timeout: .seconds(1))
            let long = await Conformance.run(adapter, clauses: passing, timeout: TestEnvironment.clauseTimeout)
            report = ConformanceReport(
                adapterName: adapter.name, capabilities: adapter.capabilities, results: short.results + long.results)
        } else if flaw == .recursiveRelease {
            // It crashes the process that runs swift.deepChain: each clause runs in a child process of its own, the
            // crash fails that clause with its signal, and the clauses after it still run.
            report = await Conformance.runIsolated(FlawedAdapter(flaw: flaw), timeout: TestEnvironment.clauseTimeout)
            let message = report["swift.deepChain"]?.status.message ?? ""
            #expect(message.contains("crashed: the process running swift.deepChain"), "\(message)")
            TestEnvironment.expectStackOverflowCrash(message)
            #expect(report.results.count == Clause.all.count)
        } else {
            report = await Conformance.run(FlawedAdapter(flaw: flaw), timeout: TestEnvironment.clauseTimeout)
        }
        let failed = Set(report.failures.map(\.clause.id))
        let expected = try #require(Self.expectedFailures[flaw])
        #expect(failed == expected, "\(report)")
        #expect(Set(report.passed.map(\.clause.id)) == Self.coreClauses.subtracting(expected))
        #expect(report.notApplicable.count == Clause.all.count - Self.coreClauses.count)
        if flaw == .dropsLateHandlers {
            #expect(report.failures.allSatisfy { $0.status.message?.contains("timed out") == true })
        }
    }

    @Test func everyFlawIsCovered() {
        #expect(Set(Self.expectedFailures.keys) == Set(Flaw.allCases))
        #expect(Flaw.allCases.count >= 8)
    }
}
