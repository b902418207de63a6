import Dispatch
import FlawedPromises
import Foundation
import PromiseConformance
import PromiseStyleAdapters
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

    @Test func unknownDeviationIdsAreErrorsThatNameThem() async throws {
        let adapter = FlawedAdapter(flaw: .retainCycle, deviations: ["2.2.44": "typo", "2.2.4#no such case": "typo"])
        let errors = Conformance.deviationErrors(adapter.deviations)
        #expect(errors.count == 2)
        #expect(errors.contains { $0.contains("unknown clause id \"2.2.44\"") })
        #expect(errors.contains { $0.contains("unknown case \"no such case\" of 2.2.4") })
        let result = await Conformance.run(adapter, clause: try #require(Clause.named("2.2.7.1")))
        #expect(result.status.isFailure && result.status.message?.contains("2.2.44") == true, "\(result)")
        let errorOutput = Command.Capture()
        let status = await ConformanceCommand.run(
            adapters: [adapter], arguments: ["--in-process"], output: { _ in }, errorOutput: errorOutput.write)
        #expect(status == 2)
        #expect(errorOutput.text.contains("2.2.44"))
    }

    /// Inline handlers break four of 2.2.4's six cases. Declaring one case leaves the others checked: the three other
    /// broken ones fail the clause, each named. Declaring the four is a deviation.
    @Test func deviationOfOneCaseDoesNotHideTheOthers() async throws {
        let clause = try #require(Clause.named("2.2.4"))
        let broken = ["fulfilled", "rejected"].flatMap {
            ["then on an already-\($0) promise", "then called inside a handler of the same \($0) promise"]
        }
        let one = FlawedAdapter(flaw: .synchronousHandlers, deviations: ["2.2.4#\(broken[0])": "inline by design"])
        let partial = await Conformance.run(one, clause: clause)
        #expect(partial.status.isFailure, "\(partial)")
        #expect(partial.status.message?.hasPrefix(broken[1]) == true, "\(partial)")
        #expect(broken.dropFirst().allSatisfy { partial.status.message?.contains("\($0): ") == true }, "\(partial)")
        #expect(partial.status.message?.contains("\(broken[0]): ") == false, "\(partial)")
        let all = FlawedAdapter(
            flaw: .synchronousHandlers,
            deviations: Dictionary(uniqueKeysWithValues: broken.map { ("2.2.4#\($0)", "inline by design") }))
        let declared = await Conformance.run(all, clause: clause)
        guard case .deviation(let text) = declared.status else {
            Issue.record("expected a deviation, got \(declared.status)")
            return
        }
        #expect(broken.allSatisfy { text.contains($0) }, "\(text)")
        // A declared case that conforms is a failure, as for a whole clause.
        let conforming = FlawedAdapter(flaw: .retainCycle, deviations: ["2.2.4#\(broken[0])": "claimed"])
        let claimed = await Conformance.run(conforming, clause: clause)
        #expect(claimed.status.message?.hasPrefix("declared deviation not observed in case") == true, "\(claimed)")
    }

    /// The built-in styles hand foreign thenables to the suite's helper; the reference promise assimilates them
    /// itself. The matrix says which verdict is whose.
    @Test func verdictsFromTheAssimilationHelperAreMarked() async throws {
        let clause = try #require(Clause.named("2.3.3.3.2"))
        let helped = await Conformance.run(BoltsStyleAdapter(), clause: clause, timeout: TestEnvironment.clauseTimeout)
        let own = await Conformance.run(ReferenceAdapter(), clause: clause, timeout: TestEnvironment.clauseTimeout)
        #expect(helped.status == .passed && helped.assimilatedByHelper)
        #expect(own.status == .passed && !own.assimilatedByHelper)
        let report = { (name: String, result: ClauseResult) in
            ConformanceReport(adapterName: name, capabilities: .everything, results: [result])
        }
        let matrix = Matrix(clauses: [clause], reports: [report("Bolts", helped), report("Reference", own)])
        #expect(matrix.text.contains("pass (helper)  pass"), "\(matrix.text)")
        #expect(matrix.text.contains("(helper): the adapter handed the suite's thenables to Assimilation.resolve"))
        #expect(matrix.json.contains("\"assimilatedByHelper\" : true"))
    }

    /// A struct wrapper around a leaking promise: by default nothing of the promise is watched (only handlers are);
    /// with `lifetimeObject(of:)` the library's object is.
    @Test func releaseWatchesTheObjectTheAdapterNames() async throws {
        let clause = try #require(Clause.named("swift.release"))
        let watched = await Conformance.run(Wrapping(watchesInner: true), clause: clause)
        #expect(
            watched.status.message?.hasPrefix(
                "a fulfilled promise, its handler and derived promise: the promise is still alive") == true,
            "\(watched)")
        let unwatched = await Conformance.run(Wrapping(watchesInner: false), clause: clause)
        #expect(unwatched.status.message?.hasPrefix("a pending promise nothing holds") == true, "\(unwatched)")
    }

    @Test func libraryWithoutCycleDetectionShowsItWithinTheBound() async throws {
        let result = await Conformance.run(
            BoltsStyleAdapter(), clause: try #require(Clause.named("2.3.1")), timeout: TestEnvironment.clauseTimeout)
        #expect(result.status.cell == "deviation")
        #expect(result.status.message?.contains("no cycle detected within 3") == true, "\(result)")
    }

    /// The gate opens only after the run returns, so the run returning at all shows that it went on while both
    /// clauses' `then` calls were still blocked (the time limit turns a run that waits for them into a failure).
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test(timeLimit(minutes: TestEnvironment.hangGuardMinutes)) func hangingImplementationTimesOutAndTheRunGoesOn()
        async throws
    {
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

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
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

/// A struct wrapper around a promise that keeps itself alive, as an adapter wraps a non-`Sendable` library promise.
struct Wrapping: PromiseAdapter {
    struct Wrapped: Sendable {
        let inner: FlawedPromise
    }

    let watchesInner: Bool
    let base = FlawedAdapter(flaw: .retainCycle)
    var name: String { "Wrapping" }

    func pending() -> (promise: Wrapped, fulfill: @Sendable (Sentinel) -> Void, reject: @Sendable (any Error) -> Void) {
        let (promise, fulfill, reject) = base.pending()
        return (Wrapped(inner: promise), fulfill, reject)
    }

    func fulfilled(_ value: Sentinel) -> Wrapped { Wrapped(inner: base.fulfilled(value)) }

    func then(
        _ promise: Wrapped, on queue: DispatchQueue?, onFulfilled: (@Sendable (Sentinel) -> HandlerResult<Wrapped>)?,
        onRejected: (@Sendable (any Error) -> HandlerResult<Wrapped>)?
    ) -> Wrapped {
        @Sendable func unwrap(_ result: HandlerResult<Wrapped>) -> HandlerResult<FlawedPromise> {
            switch result {
            case .fulfill(let value): .fulfill(value)
            case .reject(let error): .reject(error)
            case .adopt(let wrapped): .adopt(wrapped.inner)
            case .assimilate(let thenable): .assimilate(thenable)
            }
        }
        let fulfilled = onFulfilled.map { handler in { @Sendable value in unwrap(handler(value)) } }
        let rejected = onRejected.map { handler in { @Sendable error in unwrap(handler(error)) } }
        return Wrapped(inner: base.then(promise.inner, on: queue, onFulfilled: fulfilled, onRejected: rejected))
    }

    func lifetimeObject(of promise: Wrapped) -> AnyObject? { watchesInner ? promise.inner : nil }
}
