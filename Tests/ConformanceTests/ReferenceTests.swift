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
        // What the clause's documentation says about waiting for an absence is what it does.
        #expect((result.graceWaits > 0) == clause.waitsForAbsence, "\(clause.id) waited \(result.graceWaits) times")
    }
}
