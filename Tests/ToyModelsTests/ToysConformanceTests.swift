// Pins the toy models to their real styles: the conformance suite runs over each toy and over its style, clause by
// clause, and the toy's verdict must be the style's, except where the list below says otherwise and why. The same run
// checks the toys' matrix that docs/guide.md shows beside the styles' ("The toys through the conformance suite").
import Foundation
import PromiseConformance
import PromiseStyleAdapters
import TestSupport
import Testing

@testable import ToyModels

/// Where a toy's verdict differs from its style's: the toy's matrix cell, and why.
struct Difference: Sendable {
    let cell: String
    let reason: String
}

/// A toy, its real style, and the clauses on which their verdicts differ.
struct ToyAndStyle: Sendable, CustomTestStringConvertible {
    let toy: any ToyAdapter
    let style: any PromiseAdapter
    /// Runs a clause over the style, in this process (`ClauseCheck.run`, with what the style needs around it), in the
    /// run `BuiltInStylesConformance` shares (``SharedClauseRuns``).
    let runStyle: @Sendable (Clause) async -> ClauseResult
    /// Clause id → how the toy's verdict differs. Every other clause must have the same verdict.
    let differences: [String: Difference]

    var testDescription: String { "\(toy.name) and \(style.name)" }

    /// The reason shared by every toy: what keeps the real styles' long chains off the stack is what a toy leaves out.
    static let stack = Difference(
        cell: "deviation",
        reason: "the toy frees a dropped pending chain by nested deinits, and the clause's 1 MiB stack overflows: the "
            + "real cores release a chain in a loop (and BFTask keeps long inline chains flat too)")
    /// The same, measured on the large stack of `swift.deepChain.dropped` instead of crashing.
    static let measuredStack = Difference(
        cell: "deviation",
        reason: "the toy frees a dropped chain by nested deinits, and the stack grows per link: the real cores release "
            + "a chain in a loop")
    static let noCombinator = Difference(cell: "n/a", reason: "the toy has no combinators")
    static let noCancellation = Difference(cell: "n/a", reason: "the toy has no cancellation")
    /// The generated programs that return a promise's own derived promise from its handler (A+ 2.3.1) meet the
    /// toy's declared 2.3.1 deviation, which its style does not have.
    static let generatedCycle = Difference(
        cell: "deviation", reason: "programs whose handler returns its own promise meet the toy's 2.3.1 deviation")

    static let all = [
        ToyAndStyle(
            toy: ToyTaskAdapter(), style: BoltsStyleAdapter(),
            runStyle: { await SharedClauseRuns.bolts($0) },
            differences: [
                "swift.deepChain": stack, "swift.deepChain.dropped": measuredStack,
                "swift.deepChain.settled": Difference(
                    cell: "deviation",
                    reason: "the toy settles a chain of inline continuations as nested calls: BFTask's depth guard "
                        + "and trampoline keep it flat"),
                "swift.combinator.all": noCombinator, "swift.cancel": noCancellation,
                "generated.combinators": noCombinator, "generated.cancellation": noCancellation,
            ]),
        ToyAndStyle(
            toy: QueueBoxAdapter(), style: PromiseKitStyleAdapter(),
            runStyle: { await SharedClauseRuns.promiseKit($0) },
            differences: [
                "2.3.1": Difference(
                    cell: "deviation",
                    reason: "PromiseKit's returnedSelf check is in then (Thenable.swift), not in the box, and the "
                        + "toy's then leaves it out"),
                "swift.deepChain": stack, "swift.deepChain.dropped": measuredStack,
                "swift.combinator.all": noCombinator, "swift.combinator.race": noCombinator,
                "swift.combinator.any": noCombinator, "swift.cancel": noCancellation, "generated.then": generatedCycle,
                "generated.resolution": generatedCycle, "generated.combinators": noCombinator,
                "generated.cancellation": noCancellation,
            ]),
        ToyAndStyle(
            toy: ToyPromiseAdapter(), style: FBLStyleAdapter(),
            runStyle: { await SharedClauseRuns.fbl($0) },
            differences: [
                "2.3.1": Difference(
                    cell: "deviation",
                    reason: "Google's FBLPromise has no cycle check either; FBLStyle adds PromiseCycleError"),
                "swift.deepChain": stack, "swift.deepChain.dropped": measuredStack,
                "swift.combinator.all": noCombinator, "swift.combinator.race": noCombinator,
                "swift.cancel": noCancellation, "generated.then": generatedCycle,
                "generated.resolution": generatedCycle,
                "generated.combinators": noCombinator, "generated.cancellation": noCancellation,
            ]),
    ]
}

@Suite struct ToysConformance {
    /// Every clause over the toy and over its style; the toy's verdict is the style's but where `differences` says
    /// otherwise. Then the guide's matrix of the toys must show these very verdicts, for the toy and for the style.
    ///
    /// A clause the toy declares as a deviation runs in a child process: the toy may crash the process
    /// (swift.deepChain) or leave a promise waiting for itself for good (2.3.1, which would keep `ToyPromise`'s global
    /// group entered). Every other clause runs in this process, where the thread sanitizer sees the toy's races
    /// (swift.race, swift.concurrentRegistration); in a child process its reports would go unread.
    ///
    /// The clauses run ``clausesInFlight`` at a time, each over the style and then over the toy: most of a clause's
    /// time is spent waiting for its promises' queues to go quiet, and one at a time the three pairs ended the whole
    /// test run long after every other test.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test(arguments: ToyAndStyle.all)
    func toyDeviatesExactlyWhereItsStyleDoes(_ pair: ToyAndStyle) async throws {
        let differenceErrors = pair.differences.keys.filter { Clause.named($0) == nil }
        #expect(differenceErrors.isEmpty, "unknown clause ids in the differences: \(differenceErrors)")
        let results = await Self.run(Clause.all, over: pair)
        let styleResults = results.map(\.style)
        let toyResults = results.map(\.toy)
        for (clause, (style, toy)) in zip(Clause.all, results) {
            if let difference = pair.differences[clause.id] {
                #expect(
                    matrixCell(toy) == difference.cell && matrixCell(style) != difference.cell,
                    """
                    \(clause.id): \(pair.toy.name) \(toy.status), \(pair.style.name) \(style.status); listed as \
                    differing with \(pair.toy.name) \(difference.cell) because \(difference.reason)
                    """)
            } else {
                #expect(
                    matrixCell(toy) == matrixCell(style),
                    "\(clause.id): \(pair.toy.name) \(toy.status), \(pair.style.name) \(style.status)")
            }
            if clause.id == "swift.deepChain", let message = toy.status.message {
                TestEnvironment.expectStackOverflowCrash(message)
            }
        }
        let reports = [
            ConformanceReport(
                adapterName: pair.style.name, capabilities: pair.style.capabilities, results: styleResults),
            ConformanceReport(adapterName: pair.toy.name, capabilities: pair.toy.capabilities, results: toyResults),
        ]
        try GuideToyMatrix.expectShows(reports)
    }

    /// How many clauses of a pair run at once.
    static let clausesInFlight = 4

    /// Runs each of `clauses` over the pair's style and over its toy, ``clausesInFlight`` clauses at a time, and
    /// returns the verdicts in the order of `clauses`.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    static func run(_ clauses: [Clause], over pair: ToyAndStyle) async -> [(style: ClauseResult, toy: ClauseResult)] {
        await withTaskGroup(of: (Int, ClauseResult, ClauseResult).self) { group in
            var results: [(style: ClauseResult, toy: ClauseResult)?] = Array(repeating: nil, count: clauses.count)
            for (index, clause) in clauses.enumerated() {
                if index >= clausesInFlight, let (done, style, toy) = await group.next() {
                    results[done] = (style, toy)
                }
                group.addTask {
                    // The style's verdict without a declared flaky departure (which shows only when a race is
                    // lost): the toy is compared with what the style does in every run.
                    let style = withoutDeclaredFlake(await pair.runStyle(clause), of: pair.style)
                    // No toy deviation hangs until the time limit (2.3.1 gives up after
                    // Conformance.cycleDetectionLimit), so every toy clause gets the whole limit.
                    let limit = TestEnvironment.clauseTimeout
                    let toy =
                        pair.toy.deviations[clause.id] != nil
                        ? await ClauseCheck.runIsolated(pair.toy, clause, timeout: limit)
                        : await ClauseCheck.run(pair.toy, clause, timeout: limit)
                    return (index, style, toy)
                }
            }
            for await (done, style, toy) in group { results[done] = (style, toy) }
            return results.map { $0! }
        }
    }

    /// A deviation on a clause the style declares flaky is compared, and shown in the guide, as a pass; everything
    /// else keeps its verdict. Built from chosen results, so the check does not wait for the race to be lost.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func aDeclaredFlakeCountsAsThePassItIsInTheOtherRuns() throws {
        let bolts = BoltsStyleAdapter()
        let ordered = try #require(Clause.named("2.2.6.2"))
        let deep = try #require(Clause.named("swift.deepChain"))
        #expect(bolts.flakyDepartures[ordered.id] != nil && bolts.flakyDepartures[deep.id] == nil)
        let flake = ClauseResult(clause: ordered, status: .deviation("failed in 1 of 10 repetitions"))
        #expect(withoutDeclaredFlake(flake, of: bolts).status == .passed)
        let failure = ClauseResult(clause: ordered, status: .failed("out of order in every repetition"))
        #expect(withoutDeclaredFlake(failure, of: bolts).status == failure.status)
        let declared = ClauseResult(clause: deep, status: .deviation("as declared"))
        #expect(withoutDeclaredFlake(declared, of: bolts).status == declared.status)
    }
}
