import PromiseConformance
import Testing
import ThirdPartyAdapters

/// A few clauses over each library (and Swift's `Task`), each in a child process (OpenCombine's deep chain crashes it,
/// by its design), so the test stays quick: some that pass, and declared deviations that the suite observes. The whole
/// matrix is `write-report.sh`'s.
@Suite struct ThirdPartyAdapters {
    private func statuses(_ adapter: some PromiseAdapter & Codable, _ ids: [String]) async throws -> [String] {
        var cells: [String] = []
        for id in ids {
            let result = await Conformance.runIsolated(adapter, clause: try #require(Clause.named(id)))
            cells.append(result.status.cell)
            #expect(!result.status.isFailure, "\(adapter.name) \(result)")
        }
        return cells
    }

    @Test func declaredDeviationsNameRealClausesAndCases() {
        #expect(Conformance.deviationErrors(NIOFutureAdapter().deviations).isEmpty)
        #expect(Conformance.deviationErrors(OpenCombineFutureAdapter().deviations).isEmpty)
        #expect(Conformance.deviationErrors(SwiftTaskAdapter().deviations).isEmpty)
    }

    @Test func swiftNIO() async throws {
        let cells = try await statuses(
            NIOFutureAdapter(), ["2.2.2.1", "2.2.4", "swift.release", "swift.combinator.all"])
        #expect(cells == ["pass", "deviation", "deviation", "pass"])
    }

    @Test func openCombine() async throws {
        let cells = try await statuses(OpenCombineFutureAdapter(), ["2.2.2.1", "2.2.6.1", "swift.deepChain", "2.3.4"])
        #expect(cells == ["pass", "deviation", "deviation", "pass"])
    }

    /// Task's ordering deviations (2.2.6.x) depend on how the pool schedules the waiters it resumes, so the test
    /// checks deterministic ones: a task awaiting its own value, a pending task that is never freed.
    @Test func swiftTask() async throws {
        let cells = try await statuses(SwiftTaskAdapter(), ["2.2.4", "2.3.1", "swift.release", "swift.cancel"])
        #expect(cells == ["pass", "deviation", "deviation", "pass"])
    }
}
