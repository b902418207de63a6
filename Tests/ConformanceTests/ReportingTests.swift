import Dispatch
import Foundation
import PromiseConformance
import TestSupport
import Testing

/// Deviations, missing capabilities and timeouts are reported as the documentation says.
@Suite struct Reporting {
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
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

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
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

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
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
            #expect(!clause.title.isEmpty && !clause.statement.isEmpty && !clause.cases.isEmpty, "\(clause.id)")
        }
        #expect(Clause.matching(prefix: "2.2.2").map(\.id) == ["2.2.2.1", "2.2.2.2", "2.2.2.3"])
        #expect(Clause.named("swift.deepChain") != nil)
    }

    /// The gate opens only after the run returns, so the run returning at all shows that it went on while both
    /// clauses' `then` calls were still blocked (the time limit turns a run that waits for them into a failure).
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test(timeLimit(minutes: 1)) func hangingImplementationTimesOutAndTheRunGoesOn() async throws {
        let gate = Gate()
        defer { gate.open() }
        let report = await Conformance.run(
            Hanging(gate: gate), clauses: [try #require(Clause.named("2.2.2.1")), try #require(Clause.named("2.1.2"))],
            timeout: .milliseconds(500))
        #expect(report.results.count == 2)
        for result in report.results {
            #expect(result.status.message?.contains("timed out") == true, "\(result)")
        }
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func silentImplementationTimesOutWaiting() async throws {
        let result = await Conformance.run(
            FlawedAdapter(flaw: .dropsLateHandlers), clause: try #require(Clause.named("2.2.7.1")),
            timeout: .milliseconds(500))
        #expect(result.status.message?.hasPrefix("already-fulfilled: timed out waiting for") == true, "\(result)")
    }
}

/// Blocks callers until opened.
final class Gate: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private let isOpen = Locked(false)

    func wait() {
        if !isOpen.withLock({ $0 }) { semaphore.wait() }
        semaphore.signal()
    }

    func open() {
        isOpen.withLock { $0 = true }
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
