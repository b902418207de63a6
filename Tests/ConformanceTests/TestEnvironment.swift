import PromiseConformance
import TestSupport

/// How long the tests give each clause: generous, and much more under the thread sanitizer (which slows the
/// 100,000-step chains of `swift.deepChain` by an order of magnitude) and in stress mode.
extension TestEnvironment {
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    static var clauseTimeout: Duration { isThreadSanitized || isStress ? .seconds(600) : .seconds(30) }
}
