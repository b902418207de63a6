import FlawedPromises
import PromiseConformance
import TestSupport
import Testing

/// The one-line use a user's test target makes of the suite, with the from-scratch reference promise.
@Suite struct ReferenceConformance {
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test(arguments: Clause.all)
    func conformance(_ clause: Clause) async {
        let result = await expectConformance(ReferenceAdapter(), clause, timeout: TestEnvironment.clauseTimeout)
        // Every clause passes, but for the requirements that have no meaning in typed Swift.
        #expect(result.status == .passed || (clause.notMeaningful != nil && result.status.cell == "n/a"), "\(result)")
        // What the clause declares about waiting for an absence is what it does.
        #expect((result.graceWaits > 0) == clause.waitsForAbsence, "\(clause.id) waited \(result.graceWaits) times")
        // The cases it ran, in order, are exactly the cases it declares: each `inCase` name is in `cases`, and each
        // name in `cases` is a case that runs (a deviation key naming it can match).
        #expect(result.casesRun == clause.cases, "\(clause.id) ran \(result.casesRun), declares \(clause.cases)")
    }
}
