import FlawedPromises
import PromiseConformance
import TestSupport
import Testing

/// The suite has teeth: each deliberately broken promise fails exactly the clauses its one flaw breaks.
@Suite struct Teeth {
    /// The clauses that need no capability and are run, i.e. those a `FlawedAdapter` is checked against.
    static let coreClauses = Set(Clause.all.filter { $0.applies(to: []) }.map(\.id))

    /// The generated clauses a `FlawedAdapter` runs (it declares no capability).
    static let generated: Set<String> = ["generated.then", "generated.resolution"]

    static let expectedFailures: [Flaw: Set<String>] = [
        // Every handler registered before settling runs twice: the exactly-once and in-order clauses.
        .callsHandlerTwice: generated.union([
            "2.2.2.3", "2.2.3.3", "2.2.6.1", "2.2.6.2", "swift.race", "swift.concurrentRegistration",
        ]),
        // Only A+ 2.2.4 (and the generated programs, which check it): the other clauses accept a handler that ran
        // early, as long as it ran right.
        .synchronousHandlers: generated.union(["2.2.4"]),
        // Every clause but 2.3.1 observes some already-settled promise, and times out waiting for its handler.
        // (swift.deepChain.dropped never settles its unsettled chain, and frees its settled one once its end is seen.)
        .dropsLateHandlers: coreClauses.subtracting(["2.3.1", "swift.deepChain.dropped"]),
        // A settled state changes: the state clauses, and the race between resolvers.
        .secondResolutionWins: generated.union(["2.1.2.1", "2.1.2.2", "2.1.3.1", "2.1.3.2", "swift.race"]),
        // A settled state changes, and every settlement calls the first handlers again: the state and exactly-once
        // clauses, the race between resolvers, and the handlers kept for later settlements (swift.release). In the
        // generated programs a handler that settles its own source loops until the run's event limit stops it.
        .settlesAgain: generated.union([
            "2.1.2.1", "2.1.2.2", "2.1.3.1", "2.1.3.2", "2.2.2.3", "2.2.3.3", "swift.race", "swift.release",
        ]),
        // The pass-through of a rejection, also along a 100,000-step chain without onRejected.
        .rejectionBecomesFulfilment: generated.union([
            "2.2.1.2", "2.2.7.4", "swift.deepChain", "swift.deepChain.settled",
        ]),
        // Nothing it makes is ever freed: the settled promises, and the dropped chain.
        .retainCycle: generated.union(["swift.release", "swift.deepChain", "swift.deepChain.dropped"]),
        // Racing resolvers both settle, the second over the first: handlers registered before and after see different
        // outcomes. (A generated program makes no threads race on purpose: see `expectExactFailures`.)
        .racyResolution: ["swift.race"],
        // The same with nothing but an unlock and a lock between the check and the act: the calibrated race.
        .splitResolution: ["swift.race"],
        // Handlers registered from racing threads run out of their threads' order.
        .racyRegistration: ["swift.concurrentRegistration"],
        // Dropping the 100,000-link unsettled chain overflows the clause's stack: the process dies of SIGSEGV (under the
        // address sanitizer, exits with its stack-overflow report).
        // swift.deepChain.dropped measures the same recursion on its large stack, and reports it without a crash.
        .recursiveRelease: ["swift.deepChain", "swift.deepChain.dropped"],
    ]

    /// The flaws that lose handlers: each clause they break waits for a handler that never runs until its time limit,
    /// which is kept short for those clauses. No load can make a lost handler run, so they fail whatever the limit.
    static let losesHandlers: Set<Flaw> = [.dropsLateHandlers]

    /// The flaws that only a real race shows.
    static let racyFlaws: [Flaw] = [.racyResolution, .racyRegistration, .splitResolution]

    /// How many times ``racyFlawsFailEveryRun(_:)`` runs each racy flaw: 100 with `PROMISES_STRESS=1`, else 3.
    static let racyRuns = TestEnvironment.isStress ? 100 : 3

    /// The clauses ``racyFlawsFailEveryRun(_:)`` runs again and again: all but the `swift.deepChain` ones, which build and
    /// settles its chains of 20,000 and 100,000 links from one thread each (no race can change its verdict, which
    /// ``failsExactlyTheClausesItBreaks(_:)`` checks) and takes minutes of the run under the thread sanitizer, and
    /// the generated clauses, whose verdict on a racy flaw is left out (``expectExactFailures(_:of:_:sourceLocation:)``).
    static let repeatedClauses = Clause.all.filter { !$0.id.hasPrefix("swift.deepChain") && $0.programs == nil }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test(arguments: Flaw.allCases)
    func failsExactlyTheClausesItBreaks(_ flaw: Flaw) async throws {
        let report: ConformanceReport
        if flaw == .recursiveRelease {
            // It crashes the process that runs swift.deepChain: each clause runs in a child process of its own, the
            // crash fails that clause with its signal, and the clauses after it still run.
            report = await Conformance.runIsolated(FlawedAdapter(flaw: flaw), timeout: TestEnvironment.clauseTimeout)
            let message = report["swift.deepChain"]?.status.message ?? ""
            #expect(message.contains("crashed: the process running swift.deepChain"), "\(message)")
            TestEnvironment.expectStackOverflowCrash(message)
            #expect(report.results.count == Clause.all.count)
        } else {
            report = await Self.run(flaw)
        }
        try Self.expectExactFailures(report, of: flaw)
    }

    /// The race clauses catch each racy flaw in every run, however busy the machine: their racing threads meet by
    /// construction (`RacingThreads`), not by luck. `PROMISES_STRESS=1` makes it 100 runs of each flaw; the clauses
    /// keep their normal size, so that what repeats is the verdict, not a longer race.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test(arguments: racyFlaws)
    func racyFlawsFailEveryRun(_ flaw: Flaw) async throws {
        for run in 1...Self.racyRuns {
            let report = await Self.run(flaw, clauses: Self.repeatedClauses, stress: false)
            try Self.expectExactFailures(report, of: flaw, "run \(run) of \(Self.racyRuns)")
        }
    }

    /// The calibrated race, a resolver with nothing but an unlock and a lock between its check and its act
    /// (``Flaw/splitResolution``), fails `swift.race` by what the handlers of one round saw: not all the same outcome,
    /// once each. No time is measured.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func calibratedRaceFailsByWhatTheHandlersSaw() async throws {
        let clause = try #require(Clause.named("swift.race"))
        let result = await Conformance.run(
            FlawedAdapter(flaw: .splitResolution), clause: clause, timeout: TestEnvironment.clauseTimeout, stress: false
        )
        guard case .failed(let message) = result.status else {
            Issue.record("expected swift.race to fail, but it was \(result.status)")
            return
        }
        #expect(
            message.contains(
                /: round [0-9]+: handlers registered before, during and after saw \[.+\], \[.+\], \[.+\]$/),
            "\(message)")
    }

    /// Runs `clauses` over `FlawedAdapter(flaw:)` in this process. For a flaw that loses handlers, the clauses it
    /// breaks get a time limit of one second and the others the hang guard, like any clause.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    static func run(_ flaw: Flaw, clauses: [Clause] = Clause.all, stress: Bool? = nil) async -> ConformanceReport {
        let adapter = FlawedAdapter(flaw: flaw)
        guard losesHandlers.contains(flaw), let broken = expectedFailures[flaw] else {
            return await Conformance.run(
                adapter, clauses: clauses, timeout: TestEnvironment.clauseTimeout, stress: stress)
        }
        let short = await Conformance.run(
            adapter, clauses: clauses.filter { broken.contains($0.id) }, timeout: .seconds(1), stress: stress)
        let long = await Conformance.run(
            adapter, clauses: clauses.filter { !broken.contains($0.id) }, timeout: TestEnvironment.clauseTimeout,
            stress: stress)
        let byId = Dictionary(uniqueKeysWithValues: (short.results + long.results).map { ($0.clause.id, $0) })
        return ConformanceReport(
            adapterName: adapter.name, capabilities: adapter.capabilities,
            results: clauses.compactMap { byId[$0.id] })
    }

    /// Checks that `report` fails exactly the clauses `flaw` breaks among those it ran, passes every other core clause
    /// it ran, and, for a flaw that loses handlers, fails each of them by timing out.
    static func expectExactFailures(
        _ report: ConformanceReport, of flaw: Flaw, _ comment: String = "",
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let ran = Set(report.results.map(\.clause.id))
        // A generated program makes no threads race on purpose, but two of its handlers on different queues may meet
        // by chance, and a racy flaw then shows or not: the generated clauses' verdict on a racy flaw is left out.
        let byChance = racyFlaws.contains(flaw) ? generated : []
        let core = coreClauses.intersection(ran).subtracting(byChance)
        let failed = Set(report.failures.map(\.clause.id)).subtracting(byChance)
        let expected = try #require(expectedFailures[flaw], sourceLocation: sourceLocation).intersection(ran)
        #expect(failed == expected, "\(comment)\n\(report)", sourceLocation: sourceLocation)
        #expect(
            Set(report.passed.map(\.clause.id)).subtracting(byChance) == core.subtracting(expected), "\(comment)",
            sourceLocation: sourceLocation)
        let applicable = coreClauses.intersection(ran).count
        #expect(report.notApplicable.count == ran.count - applicable, sourceLocation: sourceLocation)
        if losesHandlers.contains(flaw) {
            // A fixed clause times out waiting for the lost handler; a generated one says what the model required
            // that never happened: a handler that never ran, or a promise (whose observer was lost) still pending.
            // A generated program's report wraps its prose: read it as one line.
            #expect(
                report.failures.allSatisfy { failure in
                    let message = (failure.status.message ?? "").split(whereSeparator: \.isWhitespace)
                        .joined(separator: " ")
                    guard failure.clause.programs != nil else { return message.contains("timed out") }
                    return message.contains("never ran") || message.contains("is pending")
                }, "\(comment)\n\(report.failures.map(\.description).joined(separator: "\n"))",
                sourceLocation: sourceLocation)
        }
    }

    @Test func everyFlawIsCovered() {
        #expect(Set(Self.expectedFailures.keys) == Set(Flaw.allCases))
        #expect(Flaw.allCases.count >= 8)
    }
}
