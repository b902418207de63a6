import PromiseConformance
import TestSupport
import XCTest

/// The one-line use from an XCTest target.
final class XCTestUsage: XCTestCase {
    func testReferencePromiseConforms() async {
        let report = await Conformance.run(ReferenceAdapter(), timeout: TestEnvironment.clauseTimeout)
        XCTAssert(report.failures.isEmpty, report.description)
    }
}
