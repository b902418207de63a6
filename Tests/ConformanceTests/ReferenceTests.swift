import PromiseConformance
import TestSupport
import Testing

/// The one-line use a user's test target makes of the suite, with the from-scratch reference promise.
@Suite struct ReferenceConformance {
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test(arguments: Clause.all)
    func conformance(_ clause: Clause) async {
        let result = await expectConformance(ReferenceAdapter(), clause, timeout: TestEnvironment.clauseTimeout)
        #expect(result.status == .passed, "\(result)")
    }
}
