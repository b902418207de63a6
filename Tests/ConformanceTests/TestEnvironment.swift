import PromiseConformance
import TestSupport
import Testing

/// How long the tests give each clause: the hang guard, since the clauses' work shares the cores with every other
/// test (and under the thread sanitizer, which slows the 100,000-step chains of `swift.deepChain` by an order of
/// magnitude, with a tenth of their speed).
extension TestEnvironment {
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    static var clauseTimeout: Duration { .seconds(hangGuard) }

    /// Checks the failure message of a clause whose process overflowed its stack: killed by `SIGSEGV`, or, under the
    /// address sanitizer, which catches the overflow itself, exited with status 1 after its stack-overflow report.
    static func expectStackOverflowCrash(_ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
        if isAddressSanitized {
            #expect(message.contains("exited with status 1"), "\(message)", sourceLocation: sourceLocation)
            #expect(message.contains("AddressSanitizer: stack-overflow"), "\(message)", sourceLocation: sourceLocation)
        } else {
            #expect(message.contains("signal 11 (SIGSEGV)"), "\(message)", sourceLocation: sourceLocation)
        }
    }
}
