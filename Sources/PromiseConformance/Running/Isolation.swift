import Dispatch
import Foundation

// Crash isolation: one clause per child process, so that a clause that crashes the process (a stack overflow, a trap,
// a signal) is reported as failed with its signal, and the clauses after it still run. The command re-executes
// itself (`ConformanceCommand`); a test target runs each clause as a Swift Testing exit test
// (`Conformance.runIsolated`). Both children print a line as each top-level case starts and one as it ends
// (`CaseEventRecord`), then one `ResultRecord` line, and exit with `childExitCode`. When a child dies before its
// result, its parent names the case that was running from those lines and starts another child for the cases that
// had no turn yet (`runInChildren`), then sums up every case of every child.
//
// This file runs the children and sums up; one job a file beside it: `Results/ResultRecords.swift`, the JSON lines;
// `ChildReporter.swift`, the child's side that prints them; `ChildOutput.swift`, the parent's side that parses them;
// `ErrorOutput.swift`, a crashed child's error output made readable.

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension Conformance {
    /// The exit status of a child process that ran its clause to the end and printed the outcome (whatever the
    /// outcome): neither success nor a common failure status, so that nothing else is taken for it.
    static let childExitCode: Int32 = 3

    /// The exit status of a child process that ended itself because it stopped making progress
    /// (``ChildReporter/exitWhenStuck(limit:)``), after reporting the case it was in as timed out.
    static let childHungExitCode: Int32 = 4

    /// How long a child may go without starting or ending a case before it is taken for hung: twice the time limit of
    /// a case, and 10 s more. A case that hangs is normally reported by the clause's own watchdog a
    /// ``watchdogMargin`` after its deadline; this only catches a child that cannot even do that.
    static func silenceLimit(_ timeout: Duration) -> Duration {
        timeout * 2 + .seconds(10)
    }

    /// Runs `clause` in child processes (`runChild(skipping)` starts one that skips the named cases) until each of its
    /// cases has had its turn, and sums up what they reported.
    ///
    /// A child that prints its result ran the whole clause (or what was left of it). One that dies first (a signal, an
    /// exit without a result, or killed for making no progress) is blamed on the case it had started and not ended,
    /// which is recorded as crashed (or timed out); then a new child runs the cases that neither it nor an earlier child
    /// ran. A death outside any case is a failure of the clause, and ends the clause if that child ran no case.
    ///
    /// A generated clause's case that died names the program it ran and how to replay it
    /// (``Clause/crashedProgram(_:capabilities:replay:)``), with `replay`'s line: the child that ran it cannot report
    /// it any more.
    static func runInChildren(
        _ clause: Clause, deviations: [String: String], capabilities: Capabilities, replay: ProgramReplay,
        runChild: (_ skipping: [String]) async -> ChildEnd
    ) async -> ClauseResult {
        let clock = ContinuousClock()
        let start = clock.now
        var execution = Execution()
        var skipping: [String] = []
        while true {
            let end = await runChild(skipping)
            if let launchError = end.launchError {
                execution.outside.append(launchError)
                break
            }
            let output = ChildOutput(parsing: end.output)
            if let record = output.result, record.clause == clause.id {
                let result = record.result(clause)
                if skipping.isEmpty { return result }  // the whole clause ran in one process
                execution.cases += result.caseResults
                execution.outside += result.failuresOutsideCases
                execution.graceWaits += result.graceWaits
                execution.usedAssimilationHelper = execution.usedAssimilationHelper || result.assimilatedByHelper
                break
            }
            execution.cases += output.ended
            let death = deathDescription(clause, end)
            if let running = output.running {
                let program = clause.crashedProgram(running, capabilities: capabilities, replay: replay)
                let message = death + (program.map { "\n" + $0 } ?? "")
                execution.cases.append(
                    CaseResult(name: running, outcome: end.killedForSilence ? .timedOut(message) : .crashed(message)))
            } else if end.exitCode != childHungExitCode {
                let last = (execution.cases.last?.name).map { "after case \($0)" } ?? "before its first case"
                execution.outside.append("\(death) (outside its cases, \(last))")
            }
            let ran = skipping + output.ended.map(\.name) + (output.running.map { [$0] } ?? [])
            let remaining = clause.cases.filter { !ran.contains($0) }
            // Another child for the cases left, as long as this one got through one case at least (so that this ends).
            guard !remaining.isEmpty, ran.count > skipping.count else { break }
            skipping = ran
        }
        var result = ClauseResult(
            clause: clause,
            status: verdict(clause, deviations: deviations, cases: execution.cases, outside: execution.outside),
            duration: clock.now - start, graceWaits: execution.graceWaits,
            assimilatedByHelper: execution.usedAssimilationHelper, caseResults: execution.cases)
        result.failuresOutsideCases = execution.outside
        return result
    }

    /// How a child process running `clause` died, for a report: the signal, with what it may mean, or the exit status,
    /// then the telling lines of its error output.
    static func deathDescription(_ clause: Clause, _ end: ChildEnd) -> String {
        var message: String
        if end.killedForSilence {
            message =
                "timed out: the process running \(clause.id) made no progress within its limit and was killed "
                + "(signal 9, SIGKILL)"
        } else if let signal = end.signal {
            message = "crashed: the process running \(clause.id) was killed by \(signalDescription(signal))"
        } else if end.exitCode == childHungExitCode {
            message = "timed out: the process running \(clause.id) made no progress within its limit and ended itself"
        } else {
            message =
                "crashed: the process running \(clause.id) exited with status \(end.exitCode ?? -1) before reporting"
        }
        let excerpt = ErrorOutput.excerpt(end.errorOutput)
        if !excerpt.isEmpty { message += " (its error output: \(excerpt))" }
        return message
    }

    /// `signal 11 (SIGSEGV): what it may mean`, for the signals a crash is made of: what such a signal is raised for,
    /// without naming one cause (the signal alone cannot tell which).
    static func signalDescription(_ signal: Int32) -> String {
        let invalidAccess =
            "an invalid memory access, such as a stack overflow, a use after free, a null or dangling pointer, or "
            + "other memory corruption"
        let trap =
            "a trap, such as a Swift runtime check that failed (a force unwrap of nil, an index out of range, an "
            + "arithmetic overflow, a precondition, assert or fatalError, a continuation resumed twice) or another "
            + "trap instruction"
        let known: [Int32: (name: String, meaning: String)] = [
            SIGSEGV: ("SIGSEGV", invalidAccess),
            SIGBUS: ("SIGBUS", invalidAccess),
            SIGILL: ("SIGILL", trap),
            SIGTRAP: ("SIGTRAP", trap),
            SIGABRT: (
                "SIGABRT",
                "abort(), called for instance by a failed C or C++ assertion, by the allocator on a double free or "
                    + "corrupted heap, by an uncaught C++ or Objective-C exception, or by the code itself"
            ),
            SIGFPE: ("SIGFPE", "an arithmetic exception, such as an integer division by zero in C code"),
            SIGKILL: ("SIGKILL", "killed from outside, for instance by the system when memory ran out, or by a person"),
            SIGTERM: ("SIGTERM", "asked to terminate from outside"),
            SIGPIPE: ("SIGPIPE", "a write to a pipe or socket that nothing reads any more"),
        ]
        guard let (name, meaning) = known[signal] else {
            let text = strsignal(signal).map { String(cString: $0) } ?? "unknown"
            return "signal \(signal) (\(text))"
        }
        return "signal \(signal) (\(name)): \(meaning)"
    }

    /// The path of this process's executable, which the command re-executes for each clause.
    static var currentExecutable: URL {
        #if os(Linux)
            URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        #else
            Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        #endif
    }
}
