// Each case of a clause on its own: a failure, a crash or a hang in one case is named to that case, and the clause's
// other cases still run and report, in this process, in an exit test's child process, and in the command's.
import FlawedPromises
import Foundation
import PromiseConformance
import TestSupport
import Testing

@Suite(.offThePool) struct CaseIsolation {
    /// A+ 2.2.2.1 and 2.2.3.1 run their four cases each way of settling; ``MisbehavingInOneCaseAdapter`` misbehaves in
    /// the second, which settles the promise on the clause's thread.
    static let clauses = [Clause.named("2.2.2.1")!, Clause.named("2.2.3.1")!]

    /// The time limit of each case where a case hangs: short, so that the hang costs seconds, and long enough that the
    /// cases that do not hang (each a few milliseconds of work) end well within it on a busy machine, even under a
    /// sanitizer (ten times as long there).
    static let hangTimeout = Duration.milliseconds(Int(3000 * TestEnvironment.limitScale))

    /// Checks that `result` ran every case of its clause in order, that the second (the one settled on the clause's
    /// thread) ended as `misbehaved` says and every other passed, and that the status names that case first.
    static func expectOnlyTheImmediateCase(
        _ result: ClauseResult, _ misbehaved: (CaseResult.Outcome) -> Bool, statusPrefix: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let clause = result.clause
        #expect(result.casesRun == clause.cases, "\(result)", sourceLocation: sourceLocation)
        #expect(result.caseResults.map(\.name) == clause.cases, "\(result)", sourceLocation: sourceLocation)
        for (index, caseResult) in result.caseResults.enumerated() {
            if index == 1 {
                #expect(misbehaved(caseResult.outcome), "\(caseResult)", sourceLocation: sourceLocation)
            } else {
                #expect(caseResult.passed, "\(caseResult)", sourceLocation: sourceLocation)
            }
        }
        let message = result.status.message ?? ""
        #expect(
            message.hasPrefix("\(clause.cases[1]): \(statusPrefix)"), "\(message)", sourceLocation: sourceLocation)
        for other in clause.cases where other != clause.cases[1] {
            #expect(
                !message.contains("\(other): "), "only the one case failed: \(message)", sourceLocation: sourceLocation)
        }
    }

    static func crashed(_ outcome: CaseResult.Outcome) -> Bool {
        guard case .crashed(let message) = outcome else { return false }
        // A trap: SIGILL on x86_64, SIGTRAP on arm64; the runtime's message comes from the child's error output.
        return (message.contains("(SIGILL): a trap") || message.contains("(SIGTRAP): a trap"))
            && message.contains("Fatal error: MisbehavingInOneCase: a promise settled on the thread that made it")
    }

    static func timedOut(_ outcome: CaseResult.Outcome) -> Bool {
        guard case .timedOut(let message) = outcome else { return false }
        return message.contains("the case did not return")
    }

    /// Inline handlers fail four of 2.2.4's six cases. Each case runs whatever the others did: all six run, the four
    /// fail, and the message lists each of them, in the order of the cases.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func aFailingCaseDoesNotHideTheCasesAfterIt() async throws {
        let clause = try #require(Clause.named("2.2.4"))
        let result = await Conformance.run(
            FlawedAdapter(flaw: .synchronousHandlers), clause: clause, timeout: TestEnvironment.clauseTimeout)
        #expect(result.casesRun == clause.cases, "\(result)")
        let failed = result.caseResults.filter { !$0.passed }.map(\.name)
        let broken = ["fulfilled", "rejected"].flatMap {
            ["then on an already-\($0) promise", "then called inside a handler of the same \($0) promise"]
        }
        #expect(Set(failed) == Set(broken), "\(result)")
        #expect(result.caseResults.count == 6 && failed.count == 4)
        let message = try #require(result.status.message)
        let parts = message.components(separatedBy: "; ")
        #expect(parts.map { part in failed.first { part.hasPrefix("\($0): ") } } == failed, "\(message)")
    }

    /// A case that traps, run isolated: the crash is that case's, with its signal and the runtime's message, and a new
    /// child process runs the cases after it, which pass.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func aCrashNamesItsCaseAndTheOtherCasesStillRun() async throws {
        let report = await Conformance.runIsolated(
            MisbehavingInOneCaseAdapter(.crashesInImmediateCase), clauses: Self.clauses,
            timeout: TestEnvironment.clauseTimeout)
        for result in report.results {
            Self.expectOnlyTheImmediateCase(
                result, Self.crashed, statusPrefix: "crashed: the process running \(result.clause.id) was killed by")
        }
    }

    /// A case whose call never returns, in this process: the watchdog records it as timed out, and the cases after it
    /// run on a new thread, each with a deadline of its own (one still shared with the hung case would have passed
    /// already, and they would time out at once).
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test(.timeLimit(.minutes(TestEnvironment.hangGuardMinutes))) func aHangNamesItsCaseAndTheCasesAfterItRun()
        async throws
    {
        defer { MisbehavingInOneCaseAdapter.releaseHungCalls() }
        let clause = Self.clauses[0]
        let hanging = MisbehavingInOneCaseAdapter(.hangsInImmediateCase)
        // A deviation declared for the case that hangs is not shown by a hang; one declared for the clause is, and
        // says that the case hung.
        let declaredForTheCase = MisbehavingInOneCaseAdapter(
            .hangsInImmediateCase, deviations: ["2.2.2.1#immediately-fulfilled": "hangs by design"])
        let declaredForTheClause = MisbehavingInOneCaseAdapter(
            .hangsInImmediateCase, deviations: ["2.2.2.1": "hangs by design"])
        async let plain = Conformance.run(hanging, clause: clause, timeout: Self.hangTimeout)
        async let forTheCase = Conformance.run(declaredForTheCase, clause: clause, timeout: Self.hangTimeout)
        async let forTheClause = Conformance.run(declaredForTheClause, clause: clause, timeout: Self.hangTimeout)
        Self.expectOnlyTheImmediateCase(await plain, Self.timedOut, statusPrefix: "timed out after")

        let caseResult = await forTheCase
        #expect(caseResult.status.isFailure, "\(caseResult)")
        #expect(caseResult.status.message?.contains("the case hung before its checks could show it") == true)
        #expect(caseResult.status.message?.contains("declared deviation not observed") == true)

        let clauseResult = await forTheClause
        guard case .deviation(let text) = clauseResult.status else {
            Issue.record("expected the declared deviation, got \(clauseResult.status)")
            return
        }
        #expect(text.contains("immediately-fulfilled: timed out after"), "\(text)")
        #expect(text.contains("the case did not return"), "\(text)")
    }

    /// The same hang run isolated: the child's own watchdog records the case as timed out and goes on; and a crash in a
    /// case declared as a deviation is no observed deviation, where one declared for the clause is one, saying so.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func isolatedHangsAndCrashesUnderDeclaredDeviations() async throws {
        let clause = Self.clauses[1]
        let hung = await Conformance.runIsolated(
            MisbehavingInOneCaseAdapter(.hangsInImmediateCase), clause: clause, timeout: Self.hangTimeout)
        Self.expectOnlyTheImmediateCase(hung, Self.timedOut, statusPrefix: "timed out after")

        let forTheCase = await Conformance.runIsolated(
            MisbehavingInOneCaseAdapter(
                .crashesInImmediateCase, deviations: ["2.2.3.1#immediately-rejected": "traps by design"]),
            clause: clause, timeout: TestEnvironment.clauseTimeout)
        #expect(forTheCase.status.isFailure, "\(forTheCase)")
        #expect(forTheCase.status.message?.contains("the case crashed before its checks could show it") == true)
        #expect(forTheCase.casesRun == clause.cases)

        let forTheClause = await Conformance.runIsolated(
            MisbehavingInOneCaseAdapter(.crashesInImmediateCase, deviations: ["2.2.3.1": "traps by design"]),
            clause: clause, timeout: TestEnvironment.clauseTimeout)
        #expect(forTheClause.status.cell == "deviation", "\(forTheClause)")
        #expect(forTheClause.status.message?.contains("immediately-rejected: crashed: the process running") == true)
        #expect(forTheClause.casesRun == clause.cases)
    }

    /// The command's child processes: a case that traps and a case that hangs are each named, in the text and in the
    /// JSON (`cases`), and every other case of the clause ran and passed.
    @Test func theCommandNamesTheCaseThatCrashedOrHung() throws {
        let (status, document) = try Self.runFixture([
            "--clause", "2.2.2.1", "--style", "Misbehaving(crashesInImmediateCase),Misbehaving(hangsInImmediateCase)",
            "--format", "json", "--timeout", "\(Self.hangTimeout.components.seconds)",
        ])
        #expect(status == 1)
        let styles = try #require(document["styles"] as? [[String: Any]])
        #expect(
            styles.map { $0["name"] as? String }
                == ["Misbehaving(crashesInImmediateCase)", "Misbehaving(hangsInImmediateCase)"])
        let cases = Self.clauses[0].cases
        for (style, outcome) in zip(styles, ["crashed", "timedOut"]) {
            let result = try #require((style["results"] as? [[String: Any]])?.first)
            #expect(result["casesRun"] as? [String] == cases)
            let entries = try #require(result["cases"] as? [[String: Any]])
            #expect(entries.map { $0["name"] as? String } == cases)
            #expect(entries.map { $0["outcome"] as? String } == ["passed", outcome, "passed", "passed"])
            let message = result["message"] as? String ?? ""
            let expected = outcome == "crashed" ? "crashed: the process running 2.2.2.1" : "timed out after"
            #expect(message.hasPrefix("immediately-fulfilled: \(expected)"), "\(message)")
            if outcome == "crashed" {
                // The trap's own signal, under a sanitizer too (whose children run without the backtracer).
                #expect(message.contains("was killed by signal 4 (SIGILL)"), "\(message)")
            }
        }
    }

    /// Runs the crash-isolation fixture (the command over flawed promises) with `arguments`: its exit status and its
    /// JSON document.
    static func runFixture(_ arguments: [String]) throws -> (status: Int32, document: [String: Any]) {
        let fixture = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("crash-isolation-fixture")
        let process = Process()
        process.executableURL = fixture
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return (process.terminationStatus, document)
    }
}
