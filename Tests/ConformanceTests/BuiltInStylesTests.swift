import PromiseConformance
import PromiseKitStyle
import PromiseStyleAdapters
import TestSupport
import Testing

/// The full suite over the package's three styles, one test case per clause and style: every clause passes, is a
/// declared deviation the style really shows, or needs a capability the style does not offer.
@Suite struct BuiltInStylesConformance {
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test(arguments: Clause.all)
    func boltsStyle(_ clause: Clause) async {
        await ClauseCheck.run(BoltsStyleAdapter(), clause)
    }

    /// PromiseKit reports a second resolution and a dropped pending promise through its global `conf.logHandler`;
    /// the suite does both on purpose, so this holds the process-wide test lock and silences the handler.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test(arguments: Clause.all)
    func promiseKitStyle(_ clause: Clause) async {
        await ProcessWideTestLock.withLock {
            let saved = conf.logHandler
            conf.logHandler = { _ in }
            await ClauseCheck.run(PromiseKitStyleAdapter(), clause)
            conf.logHandler = saved
        }
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test(arguments: Clause.all)
    func fblStyle(_ clause: Clause) async {
        await ClauseCheck.run(FBLStyleAdapter(), clause)
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
