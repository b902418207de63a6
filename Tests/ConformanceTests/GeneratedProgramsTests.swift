// The generated clauses (generated.*): they find each subtle flaw of the reference promise, in every run of the
// default count, and shrink it to a small program; they pass the correct reference; the programs print and parse back;
// every kind of step is used often enough.
import Dispatch
import FlawedPromises
import Foundation
import TestSupport
import Testing

@testable import PromiseConformance

@Suite struct GeneratedProgramsTests {
    static let generated = Clause.all.filter { $0.family != nil }

    /// The failures of the generated clauses on `adapter`: each failing clause's first failing program, as reported
    /// (the one the clause shrinks).
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    static func failures(_ adapter: some PromiseAdapter, programs: GeneratedPrograms = .standard) async -> [String] {
        // A case time limit of 90 s: a failure's confirming run may wait 10 s, and the shrinker has the rest.
        let report = await Conformance.run(adapter, clauses: generated, timeout: .seconds(90), programs: programs)
        return report.results.compactMap { result in
            result.caseResults.lazy.compactMap { $0.outcome == .passed ? nil : $0.message }.first
        }
    }

    /// The program a failure message reports as the smallest one.
    static func smallestProgram(in message: String) throws -> Program {
        let line = try #require(message.split(separator: "\n").first { $0.hasPrefix("  smallest program (") })
        let start = try #require(line.range(of: "): "))
        return try Program(parsing: String(line[start.upperBound...]))
    }

    /// The subtle flaws the default run does not catch, and why (the article "Testing your own promise type" says
    /// so too).
    static let notCaught: [SubtleFlaw: String] = [:]

    /// The flaws the default run catches, but not in a program of 8 steps at most.
    static let shrunkPastEightSteps: [SubtleFlaw: String] = [
        .rejectionDropsSixthHandler: "its smallest program has 9 steps (a promise, seven handlers, a reject)",
        .thenInsideOtherHandlerRunsInline:
            "the programs that show it have a promise settle on one queue while a handler on another registers on "
            + "it: whether it is settled yet is up to the scheduler, so the shrinker, which keeps a candidate only "
            + "when it fails three runs in a row, may stop at a larger program",
    ]

    static var beyondTheDefaultRun: Set<SubtleFlaw> { Set(notCaught.keys).union(shrunkPastEightSteps.keys) }

    /// Each subtle flaw, which the fixed clauses miss (SubtleFlawTests), is caught by the default run, and the first
    /// failure of each failing clause is shrunk to at most 8 steps.
    /// Whether the flaw tests run: not under a sanitizer, where the 25,000 programs they run take many minutes. They
    /// measure what the programs find, which no sanitizer changes; the sanitizers watch the same driver run over the
    /// styles.
    static let measuresDetection = !TestEnvironment.isThreadSanitized && !TestEnvironment.isAddressSanitized

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test(
        .enabled(if: measuresDetection), arguments: SubtleFlaw.allCases.filter { !beyondTheDefaultRun.contains($0) })
    func theDefaultRunCatchesTheFlaw(_ flaw: SubtleFlaw) async throws {
        let failures = await Self.failures(ReferenceAdapter(flaw: flaw))
        try #require(!failures.isEmpty, "\(flaw.rawValue) was not caught")
        for message in failures {
            #expect(try Self.smallestProgram(in: message).size <= 8, "\(flaw.rawValue): \(message)")
        }
    }

    /// The numbers the article's sections "Generated programs" and "Flaky departures" state are the code's.
    @Test func theArticleStatesTheCodesNumbers() throws {
        let article = try String(
            contentsOf: SampleRegions.packageRoot.appendingPathComponent(
                "Sources/PromiseConformance/PromiseConformance.docc/TestingYourPromise.md"),
            encoding: .utf8)
        let caught = SubtleFlaw.allCases.count - Self.notCaught.count
        for stated in [
            "``GeneratedPrograms/defaultCount`` programs (\(GeneratedPrograms.defaultCount))",
            "stall limit (\(Int(ProgramTrial.stallLimit)) s without any event)",
            "a second run with \(Int(ProgramTrial.confirmationStallLimit)) s for\neach wait",
            "plants \(SubtleFlaw.allCases.count) one-line flaws",
            "The default run catches \(caught) of them",
            "`generated programs: \(GeneratedPrograms())`",
            "a clause that failed \(Clause.generatedFailureLimit) programs runs\nno more of them",
            "promise did, wrapped to \(ProgramTrial.reportWidth) characters",
            "give three handlers to each of \(ClauseContext.orderCopies) promises",
        ] {
            #expect(article.contains(stated), "the article should say: \(stated)")
        }
        // The count the article says the CI's sanitizer steps run is the one `.ci/run` sets.
        let ci = try String(contentsOf: SampleRegions.packageRoot.appendingPathComponent(".ci/run"), encoding: .utf8)
        let sanitizerCount = try #require(
            ci.split(separator: "\n").first { $0.hasPrefix("export \(GeneratedPrograms.countVariable)=") }?
                .split(separator: "=").last)
        #expect(article.contains("runs its sanitizer steps with \(sanitizerCount)."), "\(sanitizerCount)")
    }

    /// The flaw the default run catches in 9 steps is caught.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test(.enabled(if: measuresDetection), arguments: Array(shrunkPastEightSteps.keys))
    func theDefaultRunCatchesTheFlawInMoreSteps(_ flaw: SubtleFlaw) async {
        #expect(!(await Self.failures(ReferenceAdapter(flaw: flaw))).isEmpty, "\(flaw.rawValue) was not caught")
    }

    /// The model, on a chain: the handler's value passes along a link without handlers, in the step the root settles.
    @Test func theModelFollowsAChain() throws {
        let program = try Program(
            parsing: "p0 = pending; p1 = then p0 q1 ( -> v5 ) _; p2 = then p1 - _ _; fulfil p0 v1")
        let facts = PromisesAPlus.predict(program).facts
        #expect(facts.state(1) == .fulfilled(5))
        #expect(facts.state(2) == .fulfilled(5))
        #expect(facts.settledAt[2] == 3)
        let expectation = PromisesAPlus.expectation(of: 2, program.makes[2].make, facts: facts)
        #expect(expectation.rule == "2.2.7.3")
    }

    /// Where the spec leaves a choice, the model gives the constraint: a race of inputs settled before it was made may
    /// take either.
    @Test func aRaceOfSettledInputsTakesTheFirstInInputOrder() throws {
        let program = try Program(parsing: "p0 = fulfilled v1; p1 = rejected e1; p2 = race p1 p0; p3 = any p0 p1")
        let facts = PromiseConformance.PromisesAPlus.predict(program).facts
        let race = PromisesAPlus.expectation(of: 2, program.makes[2].make, facts: facts)
        #expect(race.allows(.rejected(.error(1))) && !race.allows(.fulfilled(1)))
        let twoFulfilled = try Program(parsing: "p0 = fulfilled v1; p1 = fulfilled v2; p2 = any p1 p0; p3 = race p0 p1")
        let settled = PromiseConformance.PromisesAPlus.predict(twoFulfilled).facts
        let any = PromisesAPlus.expectation(of: 2, twoFulfilled.makes[2].make, facts: settled)
        #expect(any.allows(.fulfilled(2)) && !any.allows(.fulfilled(1)))
        let raceOfTwo = PromisesAPlus.expectation(of: 3, twoFulfilled.makes[3].make, facts: settled)
        #expect(raceOfTwo.allows(.fulfilled(1)) && !raceOfTwo.allows(.fulfilled(2)))
    }

    /// Inputs that settle in the same later step may come in either order.
    @Test func aRaceOfInputsSettledInOneLaterStepMayTakeEither() throws {
        let program = try Program(
            parsing: "p0 = pending; p1 = then p0 - ( -> v1 ) _; p2 = then p0 - ( -> v2 ) _; p3 = race p2 p1; "
                + "fulfil p0 v3")
        let facts = PromiseConformance.PromisesAPlus.predict(program).facts
        let race = PromisesAPlus.expectation(of: 3, program.makes[3].make, facts: facts)
        #expect(race.allows(.fulfilled(1)) && race.allows(.fulfilled(2)))
    }

    /// The trigger programs of the flaws that misorder handlers with no queue.
    static let unqueuedOrderTriggers: [(SubtleFlaw, String)] = [
        (
            .unqueuedHandlersPastSecondRunLastFirst,
            "p0 = pending; p1 = then p0 - ( -> v1 ) _; p2 = then p0 - ( -> v2 ) _; p3 = then p0 - ( -> v3 ) _; "
                + "fulfil p0 v4"
        ),
        (
            .unqueuedHandlerAddedInsideRunsFirst,
            "p0 = pending; p1 = then p0 - ( p3 = then p0 - ( -> v3 ) _ -> v1 ) _; p2 = then p0 - ( -> v2 ) _; "
                + "fulfil p0 v4"
        ),
    ]

    /// A+ 2.2.6 for handlers with no queue: the model orders them as it orders handlers on one serial queue. The two
    /// flaws that misorder them break that rule in their trigger program, which the model that ordered only handlers
    /// on one serial queue (`orderUnqueued: false`, what an adapter that declares its default concurrent gets)
    /// passes; the correct reference passes both.
    @Test(arguments: unqueuedOrderTriggers)
    func handlersWithNoQueueRunInThenOrder(_ flaw: SubtleFlaw, _ text: String) throws {
        let program = try Program(parsing: text)
        func violations(_ flaw: SubtleFlaw?, orderUnqueued: Bool) -> [String] {
            let adapter = ErasedAdapter(ReferenceAdapter(flaw: flaw))
            let log = ProgramRun(program, on: adapter).run(
                PromisesAPlus.predict(program), stallLimit: ProgramTrial.stallLimit,
                releaseLimit: ProgramTrial.stallLimit, deadline: .now() + TestEnvironment.clauseTimeout.dispatchInterval
            )
            return ModelComparison.violations(program, log, orderUnqueued: orderUnqueued).map(\.description)
        }
        let found = violations(flaw, orderUnqueued: true)
        #expect(found.count == 1 && found.allSatisfy { $0.hasPrefix("2.2.6.1: ") }, "\(found)")
        #expect(violations(flaw, orderUnqueued: false).isEmpty)
        #expect(violations(nil, orderUnqueued: true).isEmpty)
    }

    /// A cycle of pending promises (p2 adopts p3, which is derived from p2) need not be freed; the rest must be.
    @Test func aPendingCycleNeedNotBeFreed() throws {
        let program = try Program(
            parsing: "p0 = pending; p1 = pending; p2 = then p0 - ( -> adopt p3 ) _; p3 = then p2 - _ _; fulfil p0 v1")
        let facts = PromisesAPlus.predict(program).facts
        #expect(facts.state(2) == .pending && facts.state(3) == .pending)
        #expect(PromisesAPlus.mustBeReleased(program, facts: facts) == [0, 1])
    }

    /// At least 15 flaws are within the default run's reach.
    @Test func fifteenFlawsAtLeast() {
        #expect(SubtleFlaw.allCases.count - Self.beyondTheDefaultRun.count >= 15)
    }

    /// The correct reference does what the model requires in every program.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func theReferencePasses() async {
        let failures = await Self.failures(ReferenceAdapter())
        #expect(failures.isEmpty, "\(failures)")
    }

    /// The suite's gross flaws that a sequential program can show fail the generated clauses too (the racy ones need
    /// threads racing, which programs do not do, and `recursiveRelease` a chain of 100,000 links).
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test(arguments: [
        Flaw.callsHandlerTwice, .synchronousHandlers, .dropsLateHandlers, .secondResolutionWins,
        .rejectionBecomesFulfilment, .retainCycle,
    ])
    func theSuitesFlawedPromisesFail(_ flaw: Flaw) async {
        let failures = await Self.failures(FlawedAdapter(flaw: flaw), programs: GeneratedPrograms(count: 40))
        #expect(!failures.isEmpty, "\(flaw.rawValue) passed the generated clauses")
    }

    /// Every program of the default run prints as text that parses back to the same program.
    @Test func programsParseBack() throws {
        for family in ProgramGenerator.Family.allCases {
            let generator = ProgramGenerator(family: family, capabilities: .everything)
            for index in 1...GeneratedPrograms.defaultCount {
                let program = generator.program(seed: GeneratedPrograms.defaultSeed, index: index)
                #expect(try Program(parsing: program.description) == program, "\(program)")
                #expect(try Program(parsing: program.renumbered.description) == program.renumbered)
            }
        }
    }

    /// `PROMISE_CONFORMANCE_PROGRAMS` sets how many programs the default run makes; a value that is not a whole number
    /// from 1 up is ignored. The CI's sanitizer steps set it (`.ci/run`).
    @Test func countFromTheEnvironment() {
        let variable = GeneratedPrograms.countVariable
        #expect(variable == "PROMISE_CONFORMANCE_PROGRAMS")
        #expect(GeneratedPrograms.fromEnvironment([:]) == GeneratedPrograms())
        #expect(GeneratedPrograms.fromEnvironment([variable: "40"]) == GeneratedPrograms(count: 40))
        for ignored in ["0", "-3", "many", "", "12.5"] {
            #expect(GeneratedPrograms.fromEnvironment([variable: ignored]) == GeneratedPrograms(), "\(ignored)")
        }
        #expect(GeneratedPrograms.standard == GeneratedPrograms.fromEnvironment(ProcessInfo.processInfo.environment))
    }

    /// The coverage table of the default run, for an adapter with every capability: every kind of step at least 100
    /// times.
    @Test func everyKindOfStepIsUsedAHundredTimes() {
        let coverage = ProgramCoverage(capabilities: .everything, programs: GeneratedPrograms())
        for kind in ProgramCoverage.kinds {
            #expect((coverage.counts[kind] ?? 0) >= 100, "\(kind): \(coverage.counts[kind] ?? 0)")
        }
    }
}
