import ConformanceFixtures
import Dispatch
import Foundation
import PromiseConformance
import Synchronization
import TestSupport
import Testing

/// Deviations, missing capabilities and timeouts are reported as the documentation says.
@Suite struct Reporting {
    @Test func declaredDeviationIsReportedWhenObserved() async throws {
        let adapter = FlawedAdapter(
            flaw: .synchronousHandlers, deviations: ["2.2.4": "runs handlers of settled promises inline, by design"])
        let report = await Conformance.run(adapter, clauses: [try #require(Clause.named("2.2.4"))])
        guard case .deviation(let text) = report.results[0].status else {
            Issue.record("expected a deviation, got \(report.results[0].status)")
            return
        }
        #expect(text.contains("by design"))
        #expect(text.contains("before `then` returned"))
        #expect(report.isConforming)
        #expect(report.deviations.count == 1)
    }

    @Test func declaredDeviationThatDoesNotShowIsAFailure() async throws {
        struct Claiming: PromiseAdapter {
            let base = FlawedAdapter(flaw: .retainCycle)
            var name: String { "Claiming" }
            var deviations: [String: String] { ["2.2.4": "claims to run handlers inline"] }
            func pending() -> (
                promise: FlawedPromise, fulfill: @Sendable (Sentinel) -> Void, reject: @Sendable (any Error) -> Void
            ) { base.pending() }
            func then(
                _ promise: FlawedPromise, on queue: DispatchQueue?,
                onFulfilled: (@Sendable (Sentinel) -> HandlerResult<FlawedPromise>)?,
                onRejected: (@Sendable (any Error) -> HandlerResult<FlawedPromise>)?
            ) -> FlawedPromise { base.then(promise, on: queue, onFulfilled: onFulfilled, onRejected: onRejected) }
        }
        let result = await Conformance.run(Claiming(), clause: try #require(Clause.named("2.2.4")))
        #expect(result.status.isFailure)
        #expect(result.status.message?.hasPrefix("declared deviation not observed") == true)
    }

    @Test func missingCapabilityIsNotApplicableNeverPassed() async {
        let report = await Conformance.run(
            FlawedAdapter(flaw: .retainCycle), clauses: Clause.all.filter { !$0.requires.isEmpty })
        #expect(!report.results.isEmpty)
        #expect(report.notApplicable.count == report.results.count)
        #expect(report.passed.isEmpty)
    }

    @Test func clauseIdsAreUniqueAndEveryClauseIsDescribed() {
        let ids = Clause.all.map(\.id)
        #expect(Set(ids).count == ids.count)
        for clause in Clause.all {
            #expect(!clause.title.isEmpty && !clause.statement.isEmpty, "\(clause.id)")
            // A clause the suite runs has cases; one it lists without running says why instead.
            #expect(clause.cases.isEmpty == (clause.notMeaningful != nil), "\(clause.id)")
        }
        #expect(Clause.matching(prefix: "2.2.2").map(\.id) == ["2.2.2.1", "2.2.2.2", "2.2.2.3"])
        #expect(Clause.named("swift.deepChain") != nil)
    }

    /// Every numbered leaf requirement of Promises/A+ 1.1 section 2 has a clause of its own, in the spec's order, and
    /// no parent of one does.
    @Test func everyLeafOfTheSpecHasItsOwnClause() {
        let leaves = Clause.promisesAPlusIds
        #expect(leaves.count == 34)
        #expect(Clause.all.map(\.id).filter { $0.hasPrefix("2.") } == leaves)
        for leaf in leaves {
            #expect(!leaves.contains { $0 != leaf && $0.hasPrefix(leaf + ".") }, "\(leaf) is a parent")
        }
        #expect(Clause.all.filter { $0.notMeaningful != nil }.map(\.id) == ["2.2.5", "2.3.3.2", "2.3.3.4"])
    }

    @Test func requirementWithoutMeaningInSwiftIsNotApplicableWithTheReason() async throws {
        let clause = try #require(Clause.named("2.2.5"))
        let result = await Conformance.run(ReferenceAdapter(), clause: clause)
        #expect(result.status.cell == "n/a")
        #expect(result.status.message?.contains("no `this`") == true, "\(result)")
        let matrix = Matrix(
            clauses: [clause],
            reports: [
                ConformanceReport(
                    adapterName: "Reference", capabilities: [], results: [result])
            ])
        #expect(matrix.text.contains("2.2.5 handlers called as functions: Swift closures have no `this`"))
        #expect(matrix.json.contains("\"notMeaningful\""))
    }

    /// The gate opens only after the run returns, so the run returning at all shows that it went on while both
    /// clauses' `then` calls were still blocked (the time limit turns a run that waits for them into a failure).
    @Test(.timeLimit(.minutes(1))) func hangingImplementationTimesOutAndTheRunGoesOn() async throws {
        let gate = Gate()
        defer { gate.open() }
        let report = await Conformance.run(
            Hanging(gate: gate),
            clauses: [try #require(Clause.named("2.2.2.1")), try #require(Clause.named("2.1.2.1"))],
            timeout: .milliseconds(500))
        #expect(report.results.count == 2)
        for result in report.results {
            #expect(result.status.message?.contains("timed out") == true, "\(result)")
        }
    }

    @Test(.offThePool) func silentImplementationTimesOutWaiting() async throws {
        let result = await Conformance.run(
            FlawedAdapter(flaw: .dropsLateHandlers), clause: try #require(Clause.named("2.2.7.1")),
            timeout: .milliseconds(500))
        #expect(result.status.message?.hasPrefix("already-fulfilled: timed out waiting for") == true, "\(result)")
    }
}

/// Blocks callers until opened.
final class Gate: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private let isOpen = Atomic<Bool>(false)

    func wait() {
        if !isOpen.load(ordering: .acquiring) { semaphore.wait() }
        semaphore.signal()
    }

    func open() {
        isOpen.store(true, ordering: .releasing)
        semaphore.signal()
    }
}

/// An implementation whose `then` blocks (a deadlock, say) until the gate opens.
struct Hanging: PromiseAdapter {
    let gate: Gate
    var name: String { "Hanging" }

    func pending() -> (promise: Int, fulfill: @Sendable (Sentinel) -> Void, reject: @Sendable (any Error) -> Void) {
        (0, { _ in }, { _ in })
    }

    func then(
        _ promise: Int, on queue: DispatchQueue?, onFulfilled: (@Sendable (Sentinel) -> HandlerResult<Int>)?,
        onRejected: (@Sendable (any Error) -> HandlerResult<Int>)?
    ) -> Int {
        gate.wait()
        return 0
    }
}
