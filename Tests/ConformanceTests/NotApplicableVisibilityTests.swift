// A clause that does not run is visible as such: a known issue in Swift Testing (expectConformance), and a message
// for XCTSkip in XCTest (ConformanceReport.notApplicableMessage), instead of a passed case.
import Foundation
import TestSupport
import Testing

@testable import PromiseConformance

@Suite struct NotApplicableVisibility {
    /// `swift.combinator.race` over the sample adapter, which declares no capability, and 2.2.5, which has no meaning
    /// in typed Swift.
    static let skipped = ["swift.combinator.race", "2.2.5"].compactMap(Clause.named)
    static let ran = Clause.named("2.1.1.1")!

    /// expectConformance records a clause that did not run as a known issue naming the clause, the adapter and why;
    /// the test case still passes.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func aClauseThatDidNotRunIsAKnownIssue() async {
        let race = Self.skipped[0]
        let result = await expectConformance(MyPromiseAdapter(), race, timeout: TestEnvironment.clauseTimeout)
        #expect(result.status == Conformance.skipped(race, capabilities: [])?.status)
        #expect(
            notApplicableIssue(race, result.status.message ?? "", adapterName: "MyPromise")
                == "swift.combinator.race (race: the first to settle) not applicable to MyPromise: "
                + (result.status.message ?? ""))
    }

    /// The report's message for XCTSkip names each clause that did not run, with why, and the count; nil when every
    /// clause ran.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func theReportNamesTheClausesThatDidNotRun() async throws {
        let report = await Conformance.run(
            MyPromiseAdapter(), clauses: [Self.ran] + Self.skipped, timeout: TestEnvironment.clauseTimeout)
        let message = try #require(report.notApplicableMessage)
        let reasons = report.notApplicable.map { "\($0.clause.id) (\($0.status.message ?? ""))" }
        #expect(reasons.count == 2)
        #expect(message == "2 of 3 clauses not applicable to MyPromise: " + reasons.joined(separator: "; "))
        let ranOnly = await Conformance.run(
            MyPromiseAdapter(), clauses: [Self.ran], timeout: TestEnvironment.clauseTimeout)
        #expect(ranOnly.notApplicableMessage == nil)
    }
}
