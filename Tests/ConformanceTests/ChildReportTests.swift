// How a parent sums up a clause whose child processes died, how it words a signal, and how it shows a child's error
// output: checked on made-up children, so that every way a child can end is covered without crashing one.
import Foundation
import Testing

@testable import PromiseConformance

@Suite struct ChildReports {
    /// A+ 2.2.2.1: already-fulfilled, immediately-fulfilled, eventually-fulfilled, fulfilled-from-another-thread.
    static let clause = Clause.named("2.2.2.1")!
    static var cases: [String] { clause.cases }

    /// What a child prints: its case lines, and its result line if it got that far.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    static func output(_ events: [CaseEvent], result: ClauseResult? = nil) -> String {
        (events.map { CaseEventRecord($0).line } + (result.map { [ResultRecord($0).line] } ?? []))
            .joined(separator: "\n")
    }

    static func passed(_ name: String) -> CaseEvent { .ended(CaseResult(name: name, outcome: .passed)) }

    /// The message of a case that crashed; a failed requirement for any other outcome.
    static func crashMessage(_ result: CaseResult) throws -> String {
        guard case .crashed(let message) = result.outcome else {
            throw CrashExpected(result: result)
        }
        return message
    }

    /// A case that should have crashed ended otherwise.
    struct CrashExpected: Error, CustomStringConvertible {
        let result: CaseResult
        var description: String { "expected \(result.name) to have crashed: \(result.outcome)" }
    }

    /// Runs `clause` over children that end as `ends` says, one after the other, and records what each was asked to
    /// skip.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    static func run(
        _ ends: [Conformance.ChildEnd], deviations: [String: String] = [:]
    ) async -> (result: ClauseResult, skipped: [[String]]) {
        let skipped = Locked<[[String]]>([])
        let result = await Conformance.runInChildren(
            clause, deviations: deviations, capabilities: [],
            replay: ProgramReplay(.swift, adapterName: "Children", adapterType: "Kids")
        ) { skipping in
            let index = skipped.withLock { list in
                list.append(skipping)
                return list.count - 1
            }
            return ends[index]
        }
        return (result, skipped.withLock { $0 })
    }

    /// A child that dies in the second case: the parent blames that case, and a second child runs the two left, whose
    /// result is merged with what the first reported.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func aChildThatDiesInACaseIsFollowedByOneForTheCasesLeft() async throws {
        var first = Conformance.ChildEnd(
            output: Self.output([.started(Self.cases[0]), Self.passed(Self.cases[0]), .started(Self.cases[1])]))
        first.signal = SIGSEGV
        first.errorOutput = Array("some output\nFatal error: the promise was freed twice\n".utf8)
        let rest = ClauseResult(
            clause: Self.clause, status: .passed,
            caseResults: Self.cases[2...].map { CaseResult(name: $0, outcome: .passed) })
        let second = Conformance.ChildEnd(
            output: Self.output(Self.cases[2...].flatMap { [.started($0), Self.passed($0)] }, result: rest))
        let (result, skipped) = await Self.run([first, second])
        #expect(skipped == [[], Array(Self.cases[..<2])])
        #expect(result.casesRun == Self.cases)
        let message = try Self.crashMessage(result.caseResults[1])
        #expect(
            message.hasPrefix(
                "crashed: the process running 2.2.2.1 was killed by signal \(SIGSEGV) (SIGSEGV): an invalid memory "
                    + "access"), "\(message)")
        #expect(message.hasSuffix(" (its error output: Fatal error: the promise was freed twice)"), "\(message)")
        #expect(result.status.message == "immediately-fulfilled: \(message)")
    }

    /// A generated clause's program that crashes its child is reported with the program's text and the command that
    /// replays it: the child died before it could report the program.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func aCrashedProgramIsNamedWithItsText() async throws {
        let programs = GeneratedPrograms(count: 3, seed: 7)
        let clause = try #require(Clause.named("generated.then")).with(programs)
        var first = Conformance.ChildEnd(
            output: Self.output([.started("program 1"), Self.passed("program 1"), .started("program 2")]))
        first.signal = SIGABRT
        let rest = ClauseResult(
            clause: clause, status: .passed, caseResults: [CaseResult(name: "program 3", outcome: .passed)])
        let second = Conformance.ChildEnd(
            output: Self.output([.started("program 3"), Self.passed("program 3")], result: rest))
        let ends = Locked([first, second])
        let replay = ProgramReplay(.command("children-conformance"), adapterName: "Children", adapterType: "Kids")
        let result = await Conformance.runInChildren(
            clause, deviations: [:], capabilities: .everything, replay: replay
        ) { _ in ends.withLock { $0.removeFirst() } }
        let program = ProgramGenerator(family: .then, capabilities: .everything).program(seed: 7, index: 2)
        let message = try Self.crashMessage(result.caseResults[1])
        #expect(
            message.hasSuffix(
                "\n  program 2 of seed 7 (\(program.size) steps, not shrunk): \(program)\n  "
                    + "replay: children-conformance --style Children --program '\(program)'"), "\(message)")
        #expect(try Program(parsing: program.description) == program)
        #expect(clause.crashedProgram("program 4", capabilities: .everything, replay: replay) == nil)
        #expect(Self.clause.crashedProgram("program 1", capabilities: .everything, replay: replay) == nil)
    }

    /// A child killed for saying nothing for too long: the case it was in timed out. A child that ended itself for
    /// that reason (after reporting the case as timed out) is no crash. Either way the cases left run in the next.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func aChildThatHangsTimesItsCaseOut() async {
        var killed = Conformance.ChildEnd(output: Self.output([.started(Self.cases[0])]))
        killed.signal = SIGKILL
        killed.killedForSilence = true
        let hung = CaseResult(name: Self.cases[1], outcome: .timedOut("timed out: no progress"))
        var endedItself = Conformance.ChildEnd(output: Self.output([.started(Self.cases[1]), .ended(hung)]))
        endedItself.exitCode = Conformance.childHungExitCode
        let rest = ClauseResult(
            clause: Self.clause, status: .passed,
            caseResults: Self.cases[2...].map { CaseResult(name: $0, outcome: .passed) })
        let last = Conformance.ChildEnd(output: Self.output([], result: rest))
        let (result, skipped) = await Self.run([killed, endedItself, last])
        #expect(skipped == [[], [Self.cases[0]], Array(Self.cases[..<2])])
        #expect(result.caseResults.map(\.name) == Self.cases)
        guard case .timedOut(let message) = result.caseResults[0].outcome else {
            Issue.record("expected the first case to have timed out: \(result)")
            return
        }
        #expect(message.hasPrefix("timed out: the process running 2.2.2.1 made no progress"), "\(message)")
        #expect(result.caseResults[1] == hung)
        #expect(result.caseResults[2...].allSatisfy { $0.passed })
        #expect(result.failuresOutsideCases.isEmpty, "\(result.failuresOutsideCases)")
    }

    /// A child that dies before its first case: nothing to skip, so no second child (it would die the same way); the
    /// clause fails with the death, outside its cases.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func aChildThatDiesBeforeItsFirstCaseIsNotRetried() async {
        var end = Conformance.ChildEnd()
        end.exitCode = 1
        let (result, skipped) = await Self.run([end])
        #expect(skipped == [[]])
        #expect(result.casesRun.isEmpty)
        #expect(
            result.status.message
                == "crashed: the process running 2.2.2.1 exited with status 1 before reporting (outside its cases, "
                + "before its first case)")
    }

    /// The verdict over a clause's cases, for each way a case can end and each kind of declaration.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func verdicts() {
        func verdict(_ outcomes: [CaseResult.Outcome], _ deviations: [String: String] = [:]) -> ClauseStatus {
            Conformance.verdict(
                Self.clause, deviations: deviations,
                cases: zip(Self.cases, outcomes).map { CaseResult(name: $0, outcome: $1) }, outside: [])
        }
        let allPass = [CaseResult.Outcome](repeating: .passed, count: 4)
        #expect(verdict(allPass) == .passed)
        // Every failing case is listed, in order.
        #expect(
            verdict([.passed, .failed("a"), .crashed("b"), .timedOut("c")])
                == .failed("immediately-fulfilled: a; eventually-fulfilled: b; fulfilled-from-another-thread: c"))
        // A case declared as a deviation shows it by failing a check, not by crashing or hanging.
        let declared = ["2.2.2.1#eventually-fulfilled": "late"]
        #expect(
            verdict([.passed, .passed, .failed("x"), .passed], declared)
                == .deviation("eventually-fulfilled: late (observed: eventually-fulfilled: x)"))
        let crashed = verdict([.passed, .passed, .crashed("signal"), .passed], declared)
        #expect(crashed.isFailure && crashed.message?.contains("declared deviation not observed") == true)
        let hung = verdict([.passed, .passed, .timedOut("hung"), .passed], declared)
        #expect(hung.message?.contains("the case hung before its checks could show it") == true, "\(hung)")
        #expect(
            verdict(allPass, declared)
                == .failed("declared deviation not observed in case eventually-fulfilled (declared: late)"))
        // Declared for the whole clause: whatever failed is the deviation, and says how.
        #expect(
            verdict([.passed, .timedOut("timed out"), .passed, .passed], ["2.2.2.1": "slow"])
                == .deviation("slow (observed: immediately-fulfilled: timed out)"))
        #expect(verdict(allPass, ["2.2.2.1": "slow"]) == .failed("declared deviation not observed (declared: slow)"))
    }

    /// A case's declared deviation covers the case's runs through the adapter's entry points ("via NAME: case"): one
    /// that fails there is the deviation observed, one that passes there is no problem, and a case run through an
    /// entry point that has no declaration of its own still fails.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func aCaseDeviationCoversItsRunsThroughEntryPoints() {
        let declared = ["2.2.2.1#eventually-fulfilled": "late"]
        func verdict(_ results: [(String, CaseResult.Outcome)]) -> ClauseStatus {
            Conformance.verdict(
                Self.clause, deviations: declared, cases: results.map { CaseResult(name: $0, outcome: $1) },
                outside: [])
        }
        let direct: [(String, CaseResult.Outcome)] = [
            ("immediately-fulfilled", .passed), ("eventually-fulfilled", .failed("x")),
        ]
        #expect(
            verdict(direct + [("via map(on: nil): eventually-fulfilled", .failed("y"))])
                == .deviation("eventually-fulfilled: late (observed: eventually-fulfilled: x)"))
        #expect(
            verdict(direct + [("via map(on: nil): eventually-fulfilled", .passed)])
                == .deviation("eventually-fulfilled: late (observed: eventually-fulfilled: x)"))
        #expect(
            verdict(direct + [("via map(on: nil): immediately-fulfilled", .failed("z"))])
                == .failed("via map(on: nil): immediately-fulfilled: z"))
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func signalsSayWhatTheyMayMean() {
        #expect(Conformance.signalDescription(SIGSEGV).hasPrefix("signal \(SIGSEGV) (SIGSEGV): an invalid memory"))
        #expect(Conformance.signalDescription(SIGSEGV).contains("stack overflow, a use after free"))
        #expect(Conformance.signalDescription(SIGBUS).contains("(SIGBUS): an invalid memory access"))
        #expect(Conformance.signalDescription(SIGILL).contains("(SIGILL): a trap, such as a Swift runtime check"))
        #expect(Conformance.signalDescription(SIGTRAP).contains("force unwrap of nil"))
        #expect(Conformance.signalDescription(SIGABRT).contains("(SIGABRT): abort()"))
        #expect(Conformance.signalDescription(SIGUSR1).hasPrefix("signal \(SIGUSR1) ("))
    }

    /// The Swift runtime's backtracer, as a crashing child writes it to a pipe (cut down), coloured as it is when
    /// `SWIFT_BACKTRACE=color=yes`, with the registers' memory shown as characters and a stray invalid byte: what the
    /// report used to end with ("its last error output") was the image list and the time the backtrace took.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func errorOutputIsShownAsText() {
        let escape = "\u{1B}"
        let text =
            "App/main.swift:6: Fatal error: boom in case X\n\n"
            + "\u{1F4A3} \(escape)[91mProgram crashed: Signal 4: Backtracing from 0x7eff0e0f9361...\(escape)[0m\r"
            + "\(escape)[0K\u{1F4A3} \(escape)[91mProgram crashed: Illegal instruction at 0x00007eff0e0f9361"
            + "\(escape)[39m\n\n"
            + "Platform: \(escape)[37mx86_64\(escape)[39m Linux\n\n"
            + "Thread 0 \"main\" crashed:\n\n"
            + "  0      \(escape)[32m0x00007f9472af9361\(escape)[39m _assertionFailure(_:_:file:line:flags:) + 225 in "
            + "libswiftCore.so\n"
            + "  1 [ra] 0x0000564028b47c12 main + 945 in App at /src/App/main.swift:6:15\n"
            + "  2 [ra] 0x0000564028b47c99 start + 12 in App\n"
            + "  3 [ra] 0x0000564028b47c99 more + 12 in App\n...\n\nRegisters:\n\n"
            + "rbp 0x00007fff6ef26d60  d0 6f f2 6e ff 7f 00 00 12 7c b4 28 40 56 00 00  \u{D0}o\u{F2}n\u{FF}\u{B7}\n"
            + "\nImages (19 omitted):\n\n"
            + "0x0000564028b46000\u{2013}0x0000564028b48450 867bebbbc6c03f20e0e93750ce782631f34a8c52 App /src/App\n\n"
            + "Backtrace took 0.01s\n"
        let bytes = Array(text.utf8) + [0xFF, 0xFE, 0x0A]
        let excerpt = ErrorOutput.excerpt(bytes)
        #expect(
            excerpt
                == "App/main.swift:6: Fatal error: boom in case X / Program crashed: Illegal instruction / "
                + "Thread 0 \"main\" crashed: / 0 _assertionFailure(_:_:file:line:flags:) + 225 in libswiftCore.so / "
                + "1 main + 945 in App at /src/App/main.swift:6:15 / 2 start + 12 in App")
        #expect(!ErrorOutput.lines(bytes).joined().contains(escape))
        #expect(!ErrorOutput.lines(bytes).joined().contains("\u{FFFD}"))
        // Without a backtrace or a runtime message, the last lines.
        #expect(ErrorOutput.excerpt(Array("one\ntwo\nthree\nfour\n".utf8)) == "two / three / four")
        #expect(ErrorOutput.excerpt([]).isEmpty)
    }
}
