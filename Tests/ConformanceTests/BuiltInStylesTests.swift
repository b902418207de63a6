import PromiseConformance
import PromiseKitStyle
import PromiseStyleAdapters
import TestSupport
import Testing

/// The full suite over the package's three styles, one test case per clause and style: every clause passes, is a
/// declared deviation the style really shows, or needs a capability the style does not offer.
@Suite struct BuiltInStylesConformance {
    /// A declared deviation that hangs (a task waiting for itself) shows as soon as the clause times out; it gets a
    /// shorter limit so that those clauses do not dominate the run.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    private func timeout(_ adapter: some PromiseAdapter, _ clause: Clause) -> Duration {
        guard adapter.deviations[clause.id] != nil else { return TestEnvironment.clauseTimeout }
        return TestEnvironment.isThreadSanitized ? .seconds(20) : .seconds(5)
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    private func check(_ adapter: some PromiseAdapter, _ clause: Clause) async {
        let result = await expectConformance(adapter, clause, timeout: timeout(adapter, clause))
        // Each case the clause ran is one it declares: the names a deviation key may use are the ones that run.
        #expect(
            Set(result.casesRun).isSubset(of: clause.cases),
            "\(clause.id) ran cases \(result.casesRun), not all among its cases \(clause.cases)")
        switch result.status {
        case .passed:
            #expect(adapter.deviations[clause.id] == nil)
        case .deviation:
            #expect(adapter.deviations[clause.id] != nil)
        case .notApplicable:
            #expect(clause.notMeaningful != nil || !adapter.capabilities.isSuperset(of: clause.requires))
        case .failed:
            break  // expectConformance recorded the issue
        }
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test(arguments: Clause.all)
    func boltsStyle(_ clause: Clause) async {
        await check(BoltsStyleAdapter(), clause)
    }

    /// PromiseKit reports a second resolution and a dropped pending promise through its global `conf.logHandler`;
    /// the suite does both on purpose, so this holds the process-wide test lock and silences the handler.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test(arguments: Clause.all)
    func promiseKitStyle(_ clause: Clause) async {
        await ProcessWideTestLock.withLock {
            let saved = conf.logHandler
            conf.logHandler = { _ in }
            await check(PromiseKitStyleAdapter(), clause)
            conf.logHandler = saved
        }
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test(arguments: Clause.all)
    func fblStyle(_ clause: Clause) async {
        await check(FBLStyleAdapter(), clause)
    }

    /// The matrix the README shows: PromiseKitStyle and FBLStyle conform to every clause they have the capability
    /// for; BoltsStyle deviates only where it says so.
    @Test func declaredDeviations() {
        #expect(PromiseKitStyleAdapter().deviations.isEmpty)
        #expect(FBLStyleAdapter().deviations.isEmpty)
        #expect(Set(BoltsStyleAdapter().deviations.keys) == ["2.2.4", "2.3.1", "swift.combinator.all"])
    }
}
