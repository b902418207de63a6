// The deep-chain clauses measure how deep a chain's settlement takes the stack, on a thread with a stack large enough
// that no recursion crashes it: a promise that recurses once per link fails with the growth measured, whichever path
// recurses (a pass-through, one entry point), and every run says the same.
import BoltsStyle
import FlawedPromises
import PromiseStyleAdapters
import TestSupport
import Testing

@testable import PromiseConformance

@Suite(.offThePool) struct DeepChainRecursion {
    static let settled = Clause.named("swift.deepChain.settled")!

    /// The failure message of `swift.deepChain.settled` over `adapter`, run in process; nil when it passed.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    static func failure(_ adapter: some PromiseAdapter) async -> String? {
        let result = await Conformance.run(
            adapter, clause: settled, timeout: .seconds(10 * TestEnvironment.limitScale), stress: false)
        guard case .failed(let message) = result.status else { return nil }
        return message
    }

    /// The clauses before the deep-chain family pass the flawed promises: none builds a chain through a pass-through
    /// of a value or through an entry point.
    ///
    /// Not under a sanitizer: it checks a verdict, which the plain run checks every time, and `swift.deepChain` builds
    /// 120,000 promises per flawed promise, which under the thread sanitizer ran past the case's limit (a clean-clone
    /// CI run: "an unsettled chain dropped: timed out after 100.0 seconds").
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test(
        .disabled(
            if: TestEnvironment.isThreadSanitized || TestEnvironment.isAddressSanitized,
            "a verdict, checked by the plain run; the old clause's 120,000 promises outlast its limit under a sanitizer"
        ),
        arguments: ["swift.deepChain", "2.2.7.3", "2.2.7.4"])
    func theClausesBeforeMissBoth(_ id: String) async throws {
        let clause = try #require(Clause.named(id))
        for adapter in [ErasedFlawed.passThrough, .entryPoint, .oldBolts] {
            let result = await adapter.run(clause)
            #expect(result.status == .passed, "\(adapter): \(result.status)")
        }
    }

    /// A promise that passes a value it has no handler for on inside the parent's callback fails the case "no
    /// handler for the outcome, fulfilled root" with the recursion measured, and no other case.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func aPassThroughThatRecursesFailsWithTheGrowthMeasured() async throws {
        let message = try #require(await Self.failure(PassThroughRecursionAdapter()))
        #expect(
            message.hasPrefix(
                "no handler for the outcome, fulfilled root: root settled last, default queue: "
                    + "recursion per link: the stack grew"), "\(message)")
        #expect(message.components(separatedBy: "; ").count == 1, "\(message)")
        #expect(message.contains("a 512 KiB thread overflows at about"), "\(message)")
        #expect(!message.contains("timed out"), "\(message)")
    }

    /// A promise whose `then` is right and whose second form, `thenInline`, runs handlers inside the parent's
    /// callback fails through that entry point only.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func anEntryPointThatRecursesFailsNamingIt() async throws {
        let message = try #require(await Self.failure(EntryPointRecursionAdapter()))
        #expect(
            message.hasPrefix("via thenInline: handlers return a value, fulfilled root: recursion per link"),
            "\(message)")
        #expect(!message.contains("root settled"), "the adapter's own then passes: \(message)")
    }

    /// The settlement path of issue 42's BoltsStyle defect, in small: its pass-through recurses through its one-handler forms only,
    /// which the deep chains through its entry points show, from a rejected root past `onSuccess` and from a fulfilled
    /// one past `onError`.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func theOldBoltsSettlementPathFailsThroughItsEntryPoints() async throws {
        let message = try #require(await Self.failure(OldBoltsSettlementAdapter()))
        #expect(
            message.contains("via onSuccess: no handler for the outcome, rejected root: recursion per link"),
            "\(message)")
        #expect(
            message.contains("via onError: no handler for the outcome, fulfilled root: recursion per link"),
            "\(message)")
        #expect(!message.contains("root settled"), "the adapter's own then passes: \(message)")
    }

    /// BoltsStyle settles a derived task whose continuation does not handle the outcome (a fault reaching
    /// `continueOnSuccessWith`) through its trampoline, as `OldBoltsSettlementAdapter` does not: through every one of
    /// its entry points, no chain recurses. Its adapter's own `then` (`continueWithTask`) never showed the difference.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func boltsStylesPassThroughRunsAsALoopThroughEveryEntryPoint() async throws {
        let message = await Self.failure(BoltsStyleAdapter())
        #expect(message == nil, "\(message ?? "")")
    }

    /// A chain whose end has the wrong outcome is reported as that, not as a stall: the flaw that turns a rejection
    /// into a fulfilment.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func aWrongEndIsReportedAsThat() async throws {
        let message = try #require(await Self.failure(FlawedAdapter(flaw: .rejectionBecomesFulfilment)))
        #expect(
            message.contains(
                "no handler for the outcome, rejected root: root settled last, default queue: expected the end of the "
                    + "chain to be rejected like its root, but it was fulfilled"), "\(message)")
        #expect(!message.contains("timed out") && !message.contains("recursion"), "\(message)")
    }

    /// The same failure in a child process as in this one: what crashed a child process and timed out or failed
    /// otherwise in the older clause is measured here, the same way by every runner.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func aChildProcessReportsWhatThisOneDoes() async throws {
        let isolated = await Conformance.runIsolated(
            OldBoltsSettlementAdapter(), clause: Self.settled, timeout: .seconds(10 * TestEnvironment.limitScale))
        guard case .failed(let childMessage) = isolated.status else {
            Issue.record("expected a failure, got \(isolated.status)")
            return
        }
        let message = try #require(await Self.failure(OldBoltsSettlementAdapter()))
        let cases = { (text: String) in
            text.components(separatedBy: "; ").map { $0.components(separatedBy: ": recursion")[0] }
        }
        #expect(cases(childMessage) == cases(message), "child: \(childMessage)\nhere: \(message)")
        #expect(!childMessage.contains("crashed") && !childMessage.contains("timed out"), "\(childMessage)")
    }

    /// The same failure in every run: the measure is of the stack, not of time.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func theVerdictIsTheSameInEveryRun() async throws {
        let first = try #require(await Self.failure(EntryPointRecursionAdapter()))
        let second = try #require(await Self.failure(EntryPointRecursionAdapter()))
        #expect(first.components(separatedBy: "; ").count == second.components(separatedBy: "; ").count)
    }
}

/// The two flawed adapters, to run a clause over each.
private enum ErasedFlawed: CustomStringConvertible {
    case passThrough, entryPoint, oldBolts

    var description: String {
        switch self {
        case .passThrough: "PassThroughRecursion"
        case .entryPoint: "EntryPointRecursion"
        case .oldBolts: "OldBoltsSettlement"
        }
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    func run(_ clause: Clause) async -> ClauseResult {
        // The project's hang guard: the old swift.deepChain's 20,000 steps hop through Dispatch's global queues, which a
        // full run beside three busy loops kept from stepping for over 10 s (a clean-clone CI run: "no step since the
        // last, 3000 of 20000 steps in 16.3 s").
        let timeout = TestEnvironment.clauseTimeout
        return switch self {
        case .passThrough:
            await Conformance.run(PassThroughRecursionAdapter(), clause: clause, timeout: timeout, stress: false)
        case .entryPoint:
            await Conformance.run(EntryPointRecursionAdapter(), clause: clause, timeout: timeout, stress: false)
        case .oldBolts:
            await Conformance.run(OldBoltsSettlementAdapter(), clause: clause, timeout: timeout, stress: false)
        }
    }
}

/// A reason that reaches the end of a chain nested once per link is reported with its boxes counted, before any cast
/// of it recurses through them (ErrorBoxes).
@Suite(.offThePool) struct ReboxedReasons {
    /// The rejected roots fail with the reason's boxes counted: 251 for the first chain of 250 links, the suite's own
    /// handler on the end adding one, since it registers through the adapter's `then` too. The fulfilled ones pass.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func aReasonReboxedPerLinkIsReportedNotCrashed() async throws {
        let message = try #require(await DeepChainRecursion.failure(ReboxingAdapter()))
        let cases = message.components(separatedBy: "; ")
        #expect(cases.allSatisfy { $0.contains("rejected root: root settled last, default queue: ") }, "\(message)")
        #expect(
            cases.contains {
                $0.hasPrefix(
                    "no handler for the outcome, rejected root: root settled last, default queue: the end of the "
                        + "chain was rejected with a reason nested in 251 boxes of `any Error` (more than "
                        + "\(ErrorBoxes.limit)):")
            }, "\(message)")
        #expect(!cases.contains { $0.contains("fulfilled root") }, "\(message)")
        #expect(!message.contains("crashed") && !message.contains("timed out"), "\(message)")
    }

    /// The count is exact, takes no cast, and sees through no box that is not there.
    @Test func theBoxesAreCounted() {
        struct Failure: Error {}
        #expect(ErrorBoxes.count(Failure()) == 0)
        var error: any Error = Failure()
        for _ in 0..<1_000 { error = NestingBox<any Error>(error).erased }
        #expect(ErrorBoxes.count(error) == 1_000)
        #expect(ErrorBoxes.excess(Failure(), in: "it") == nil)
    }

    /// The limit the article states is the code's.
    @Test func theArticleStatesTheLimit() throws {
        let article = try String(
            contentsOf: SampleRegions.packageRoot.appendingPathComponent(
                "Sources/PromiseConformance/PromiseConformance.docc/TestingYourPromise.md"),
            encoding: .utf8)
        let stated = "nested in more than \(ErrorBoxes.limit) boxes of `any Error`"
        #expect(article.contains(stated), "the article should say: \(stated)")
    }
}

/// Puts an `any Error` in a new box (the type parameter spelled out, so that nothing opens the existential).
private struct NestingBox<Failure: Error> {
    let error: Failure
    init(_ error: Failure) { self.error = error }
    var erased: any Error { error }
}
