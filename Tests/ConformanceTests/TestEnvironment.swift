import PromiseConformance
import TestSupport

/// How long the tests give each clause: the hang guard, since the clauses' work shares the cores with every other
/// test (and under the thread sanitizer, which slows the 100,000-step chains of `swift.deepChain` by an order of
/// magnitude, with a tenth of their speed).
extension TestEnvironment {
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    static var clauseTimeout: Duration { .seconds(hangGuard) }
}
