import FlawedPromises
import PromiseConformance
import TestSupport
import XCTest

/// The one-line use from an XCTest target.
final class XCTestUsage: XCTestCase {
    func testReferencePromiseConforms() async throws {
        guard #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) else {
            throw XCTSkip("the suite's runner needs macOS 13 / iOS 16")
        }
        let report = await Conformance.run(ReferenceAdapter(), timeout: TestEnvironment.clauseTimeout)
        XCTAssert(report.failures.isEmpty, report.description)
    }
}
