// Flaky departures: a clause that fails in some runs and not in others is reported with how often it failed, and a
// failure that shows in every repetition stays a failure, whatever the adapter declares.
import Dispatch
import FlawedPromises
import PromiseConformance
import TestSupport
import Testing

/// The reference promise, but in chosen runs of a clause each fulfilment handler is called twice: a flaky departure
/// from 2.2.2.3 made deterministic. The clause's first case makes the run's one fulfilled promise (`fulfilled(_:)`)
/// before anything else, so counting those calls tells the runs apart.
private struct SometimesTwiceAdapter: PromiseAdapter {
    let base = ReferenceAdapter()
    let runsStarted = Locked(0)
    /// The runs (0 first) in which handlers are called twice.
    let badRuns: Set<Int>
    var flakyDepartures: [String: String] = [:]

    var name: String { "SometimesTwice" }

    func pending() -> (
        promise: ReferencePromise<Sentinel>, fulfill: @Sendable (Sentinel) -> Void,
        reject: @Sendable (any Error) -> Void
    ) {
        base.pending()
    }

    func fulfilled(_ value: Sentinel) -> ReferencePromise<Sentinel> {
        runsStarted.withLock { $0 += 1 }
        return base.fulfilled(value)
    }

    func then(
        _ promise: ReferencePromise<Sentinel>, on queue: DispatchQueue?,
        onFulfilled: (@Sendable (Sentinel) -> HandlerResult<ReferencePromise<Sentinel>>)?,
        onRejected: (@Sendable (any Error) -> HandlerResult<ReferencePromise<Sentinel>>)?
    ) -> ReferencePromise<Sentinel> {
        guard badRuns.contains(runsStarted.withLock { $0 } - 1), let onFulfilled else {
            return base.then(promise, on: queue, onFulfilled: onFulfilled, onRejected: onRejected)
        }
        return base.then(
            promise, on: queue,
            onFulfilled: { value in
                _ = onFulfilled(value)
                return onFulfilled(value)
            }, onRejected: onRejected)
    }
}

@Suite(.offThePool) struct FlakyDepartures {
    static let clause = Clause.named("2.2.2.3")!

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    static func status(badRuns: Set<Int>, flaky: Bool, repetitions: Int = 1) async -> ClauseStatus {
        var adapter = SometimesTwiceAdapter(badRuns: badRuns)
        if flaky { adapter.flakyDepartures = [clause.id: "calls a handler twice when the scheduler says so"] }
        let report = await Conformance.run(adapter, clauses: [clause], repetitions: repetitions)
        return report.results[0].status
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func aDeclaredFlakyDepartureSaysHowOftenItFailed() async {
        let status = await Self.status(badRuns: [0, 3, 6], flaky: true)
        guard case .deviation(let message) = status else {
            Issue.record("expected the declared flaky departure, got \(status)")
            return
        }
        #expect(message.contains("failed in 3 of 10 repetitions"), "\(message)")
        #expect(message.contains("calls a handler twice when the scheduler says so"), "\(message)")
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func aFailureInEveryRepetitionIsNoFlakyDeparture() async {
        let status = await Self.status(badRuns: Set(0..<10), flaky: true)
        guard case .failed(let message) = status else {
            Issue.record("a failure in every repetition must stay a failure, got \(status)")
            return
        }
        #expect(message.contains("failed in every one of 10 repetitions"), "\(message)")
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func aDeclaredFlakyClauseThatNeverFailsPasses() async {
        #expect(await Self.status(badRuns: [], flaky: true) == .passed)
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func anUndeclaredFailureInSomeRepetitionsIsAFailureThatSaysHowOften() async {
        let status = await Self.status(badRuns: [1, 2], flaky: false, repetitions: 5)
        guard case .failed(let message) = status else {
            Issue.record("expected a failure, got \(status)")
            return
        }
        #expect(message.hasPrefix("failed in 2 of 5 repetitions"), "\(message)")
    }

    @Test func flakyDeparturesNameWholeClausesThatAreNoDeviations() {
        #expect(Conformance.flakyDepartureErrors(["2.2.2.3": "x"], deviations: [:]).isEmpty)
        let errors = Conformance.flakyDepartureErrors(
            ["2.2.2.3#already-fulfilled": "x", "9.9": "x", "2.2.4": "x"], deviations: ["2.2.4#some case": "y"])
        #expect(errors.count == 3, "\(errors)")
        #expect(errors.contains { $0.contains("a whole clause") })
        #expect(errors.contains { $0.contains("unknown clause id \"9.9\"") })
        #expect(errors.contains { $0.contains("both a deviation and a flaky departure") })
    }
}

@Suite(.offThePool) struct RepeatAndHelpOptions {
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func repeatRunsEachClauseThatManyTimesAndSaysHowOftenItFailed() async {
        let output = Locked<[String]>([])
        let status = await ConformanceCommand.run(
            adapters: [SometimesTwiceAdapter(badRuns: [1, 2])],
            arguments: ["--clause", "2.2.2.3", "--in-process", "--repeat", "5", "--format", "json"],
            output: { line in output.withLock { $0.append(line) } }, errorOutput: { _ in })
        #expect(status == 1)
        let text = output.withLock { $0.joined(separator: "\n") }
        #expect(text.contains("failed in 2 of 5 repetitions"), "\(text)")
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func helpAndErrorsNameTheCommandAsItWasStarted() async {
        let output = Locked<[String]>([])
        let errors = Locked<[String]>([])
        let help = await ConformanceCommand.run(
            adapters: [ReferenceAdapter()], arguments: ["--help"],
            output: { line in output.withLock { $0.append(line) } }, errorOutput: { _ in }, commandName: "my-check")
        #expect(help == 0)
        #expect(output.withLock { $0.joined() }.hasPrefix("usage: my-check [--style NAME]"))
        let usage = await ConformanceCommand.run(
            adapters: [ReferenceAdapter()], arguments: ["--repeat", "0"], output: { _ in },
            errorOutput: { line in errors.withLock { $0.append(line) } }, commandName: "my-check")
        #expect(usage == 2)
        #expect(errors.withLock { $0.joined() }.hasPrefix("my-check: --repeat needs a positive number of runs"))
        #expect(ConformanceCommand.usage.hasPrefix("usage: promise-conformance "))
    }
}
