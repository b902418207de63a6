import FlawedPromises
import PromiseConformance
import TestSupport
import XCTest

/// The use from an XCTest target, as the article shows it: the whole suite in one test, which XCTest reports as
/// skipped, with the clauses that did not run, when nothing failed (the reference promise has every capability; the
/// clauses with no meaning in typed Swift do not run).
final class XCTestUsage: XCTestCase {
    func testReferencePromiseConforms() async throws {
        guard #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) else {
            throw XCTSkip("the suite's runner needs macOS 13 / iOS 16")
        }
        let report = await Conformance.run(ReferenceAdapter(), timeout: TestEnvironment.clauseTimeout)
        XCTAssert(report.failures.isEmpty, report.description)
        XCTAssertEqual(report.notApplicable.count, Clause.all.count { $0.notMeaningful != nil })
        if let notApplicable = report.notApplicableMessage { throw XCTSkip(notApplicable) }
    }
}
