import PromiseConformance
import PromiseStyleAdapters
import TestSupport
import Testing

/// The full suite over the package's three styles, one test case per clause and style: every clause passes, is a
/// declared deviation the style really shows, or needs a capability the style does not offer. Each run is shared with
/// `ToysConformance`, which compares the toys with these verdicts (``SharedClauseRuns``).
@Suite struct BuiltInStylesConformance {
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test(arguments: Clause.all)
    func boltsStyle(_ clause: Clause) async {
        await SharedClauseRuns.bolts(clause)
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test(arguments: Clause.all)
    func promiseKitStyle(_ clause: Clause) async {
        await SharedClauseRuns.promiseKit(clause)
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test(arguments: Clause.all)
    func fblStyle(_ clause: Clause) async {
        await SharedClauseRuns.fbl(clause)
    }

    /// The matrix the README shows: PromiseKitStyle and FBLStyle conform to every clause they have the capability
    /// for; BoltsStyle deviates only where it says so.
    @Test func declaredDeviations() {
        #expect(PromiseKitStyleAdapter().deviations.isEmpty)
        #expect(FBLStyleAdapter().deviations.isEmpty)
        #expect(
            Set(BoltsStyleAdapter().deviations.keys) == [
                "2.2.4", "2.3.1", "swift.combinator.all", "generated#2.2.6.1", "generated#2.2.6.2",
            ])
    }
}
