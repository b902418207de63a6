import Dispatch
import Foundation

// Crash isolation: one clause per child process, so that a clause that crashes the process (a stack overflow, a trap,
// a signal) is reported as failed with its signal, and the clauses after it still run. The command re-executes
// itself (`ConformanceCommand`); a test target runs each clause as a Swift Testing exit test
// (`Conformance.runIsolated`). Both children print a line as each top-level case starts and one as it ends
// (`CaseEventRecord`), then one `ResultRecord` line, and exit with `childExitCode`. When a child dies before its
// result, its parent names the case that was running from those lines and starts another child for the cases that
// had no turn yet (`runInChildren`), then sums up every case of every child.

/// How one case ended, as JSON: in a child's case lines, in its result, and in the command's JSON matrix.
struct CaseRecord: Codable, Sendable {
    /// The case's name.
    let name: String
    /// `passed`, `failed`, `crashed`, `timedOut` or `deviated`.
    let outcome: String
    let message: String?

    init(_ result: CaseResult) {
        name = result.name
        message = result.message
        outcome =
            switch result.outcome {
            case .passed: "passed"
            case .failed: "failed"
            case .crashed: "crashed"
            case .timedOut: "timedOut"
            case .deviated: "deviated"
            }
    }

    /// The case result it stands for.
    var result: CaseResult {
        let message = message ?? ""
        let outcome: CaseResult.Outcome =
            switch self.outcome {
            case "passed": .passed
            case "crashed": .crashed(message)
            case "timedOut": .timedOut(message)
            case "deviated": .deviated(message)
            default: .failed(message)
            }
        return CaseResult(name: name, outcome: outcome)
    }
}

/// The line a child process prints as a top-level case starts (`started`), makes progress (`progressed`: its
/// deadline moved, see ``ClauseContext/waitWhileProgressing(_:_:of:longest:reached:)``) or ends (`ended`).
struct CaseEventRecord: Codable, Sendable {
    /// The prefix of the line. The parent finds it anywhere in a line, so that output the implementation printed
    /// without a newline does not hide it.
    static let marker = "promise-conformance-case: "

    let started: String?
    let ended: CaseRecord?
    /// The running case made progress (its deadline moved): the child is alive.
    let progressed: String?

    init(_ event: CaseEvent) {
        switch event {
        case .started(let name): (started, ended, progressed) = (name, nil, nil)
        case .ended(let result): (started, ended, progressed) = (nil, CaseRecord(result), nil)
        case .progressed(let name): (started, ended, progressed) = (nil, nil, name)
        }
    }

    /// The line the child prints.
    var line: String { Self.marker + jsonLine(self) }
}

/// One clause's result as JSON: what a child process that ran the clause tells its parent (one line on standard
/// output), and a result in the command's JSON matrix.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
struct ResultRecord: Codable {
    /// The prefix of the line, so that whatever else the implementation prints is ignored.
    static let marker = "promise-conformance-result: "

    let clause: String
    let status: String
    let message: String?
    let seconds: Double
    let graceWaits: Int
    let assimilatedByHelper: Bool
    /// Every case that ran, in order (``ClauseResult/casesRun``).
    let casesRun: [String]
    /// How each of them ended (``ClauseResult/caseResults``); nil in a result without cases.
    let cases: [CaseRecord]?
    /// What failed outside the cases; nil when nothing did.
    let failuresOutsideCases: [String]?

    init(_ result: ClauseResult) {
        clause = result.clause.id
        status = result.status.kind
        message = result.status.message
        seconds = result.duration.seconds
        graceWaits = result.graceWaits
        assimilatedByHelper = result.assimilatedByHelper
        casesRun = result.casesRun
        cases = result.caseResults.isEmpty ? nil : result.caseResults.map(CaseRecord.init)
        failuresOutsideCases = result.failuresOutsideCases.isEmpty ? nil : result.failuresOutsideCases
    }

    /// The line the child prints.
    var line: String { Self.marker + jsonLine(self) }

    /// The result it stands for.
    func result(_ clause: Clause) -> ClauseResult {
        let message = message ?? ""
        let status: ClauseStatus =
            switch status {
            case "passed": .passed
            case "deviation": .deviation(message)
            case "notApplicable": .notApplicable(message)
            default: .failed(message)
            }
        var result = ClauseResult(
            clause: clause, status: status, duration: .milliseconds(Int(seconds * 1000)), graceWaits: graceWaits,
            assimilatedByHelper: assimilatedByHelper, casesRun: casesRun,
            caseResults: (cases ?? []).map(\.result))
        result.failuresOutsideCases = failuresOutsideCases ?? []
        return result
    }
}

/// `value` as one line of JSON.
private func jsonLine(_ value: some Encodable) -> String {
    let data = (try? JSONEncoder().encode(value)) ?? Data()
    return String(decoding: data, as: UTF8.self)
}

/// What a child process printed for its parent: its case lines and its result line.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
struct ChildOutput {
    /// The cases that ended, in order.
    var ended: [CaseResult] = []
    /// The case that started and did not end: the one the child was in when it died.
    var running: String?
    /// The result, if the child got as far as printing it.
    var result: ResultRecord?

    init(parsing output: String) {
        for line in output.split(separator: "\n") {
            if let range = line.range(of: CaseEventRecord.marker),
                let event = try? JSONDecoder().decode(
                    CaseEventRecord.self, from: Data(line[range.upperBound...].utf8))
            {
                if let name = event.started { running = name }
                if let record = event.ended {
                    ended.append(record.result)
                    if running == record.name { running = nil }
                }
            } else if let range = line.range(of: ResultRecord.marker),
                let record = try? JSONDecoder().decode(ResultRecord.self, from: Data(line[range.upperBound...].utf8))
            {
                result = record
            }
        }
    }
}

/// The child's side: prints each case event and the result as a line of its own, flushed at once (so that a crash
/// loses none), and, as a last resort, ends the process when it stops making progress.
final class ChildReporter: Sendable {
    private struct State {
        var running: String?
        var lastEvent = DispatchTime.now()
    }

    private let state = Locked(State())

    /// Prints `event`'s line.
    func report(_ event: CaseEvent) {
        state.withLock { state in
            switch event {
            case .started(let name): state.running = name
            case .ended: state.running = nil
            case .progressed: break
            }
            state.lastEvent = .now()
            Self.printLine(CaseEventRecord(event).line)
        }
    }

    /// Prints the result line.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    func report(_ result: ClauseResult) {
        state.withLock { _ in Self.printLine(ResultRecord(result).line) }
    }

    private static func printLine(_ line: String) {
        print(line)
        fflush(nil)  // every stream: the line must be out before a crash can lose it
    }

    /// Ends the process, with ``Conformance/childHungExitCode``, once no case has started or ended for `limit`: what
    /// stops a child that hangs where the clause's own watchdog cannot act (its threads all blocked). A case that was
    /// running is first reported as timed out.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    func exitWhenStuck(limit: Duration) {
        let thread = Thread { [self] in
            while true {
                Thread.sleep(forTimeInterval: 0.2)
                state.withLock { state in
                    guard DispatchTime.now() >= state.lastEvent + limit.dispatchInterval else { return }
                    if let running = state.running {
                        let message =
                            "timed out: the process running the clause made no progress for \(limit) and ended "
                            + "itself (every thread it could run on was blocked, or it could not exit)"
                        Self.printLine(
                            CaseEventRecord(.ended(CaseResult(name: running, outcome: .timedOut(message)))).line)
                    }
                    _exit(Conformance.childHungExitCode)
                }
            }
        }
        thread.name = "PromiseConformance child watchdog"
        thread.start()
    }
}

extension ClauseStatus {
    /// `passed`, `failed`, `deviation` or `notApplicable`: the status in the JSON output.
    var kind: String {
        switch self {
        case .passed: "passed"
        case .failed: "failed"
        case .deviation: "deviation"
        case .notApplicable: "notApplicable"
        }
    }
}

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
    /// (``Clause/crashedProgram(_:capabilities:adapterName:)``): the child that ran it cannot report it any more.
    static func runInChildren(
        _ clause: Clause, deviations: [String: String], capabilities: Capabilities, adapterName: String,
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
                let program =
                    clause.crashedProgram(running, capabilities: capabilities, adapterName: adapterName).map {
                        "; \($0)"
                    } ?? ""
                let message = death + program
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

/// A child's error output made readable for a report.
///
/// What a crashing Swift process writes there is not plain text: on Linux (and macOS, since Swift 5.9) the runtime's
/// backtracer prints, after the runtime's own message (`Fatal error: ...`), a report that ends with the crashed
/// thread's registers, the memory they point to as hex bytes and as characters (bytes of the stack shown as Latin-1),
/// and the address ranges and build IDs of the loaded images; in a terminal it colours all of it with escape
/// sequences. The last lines of that are what a report showed, and they read as garbage.
enum ErrorOutput {
    /// The lines of `bytes` as text: decoded as UTF-8 (an invalid byte is dropped), escape sequences and control
    /// characters removed, each line trimmed, empty lines left out.
    static func lines(_ bytes: [UInt8]) -> [String] {
        var text = String.UnicodeScalarView()
        var scalars = String(decoding: bytes, as: UTF8.self).unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            switch scalar.value {
            case 0x1B:  // ESC: a CSI (`ESC [ ... final`), a string (`ESC ] ... BEL or ESC \`), or one more character
                switch scalars.next()?.value {
                case 0x5B?: skipControlSequence(&scalars)
                case 0x5D?, 0x50?, 0x58?, 0x5E?, 0x5F?: skipControlString(&scalars)
                default: break
                }
            case 0x9B: skipControlSequence(&scalars)
            case 0x0A, 0x0D: text.append("\n")
            case 0x09: text.append(" ")
            case 0x00..<0x20, 0x7F..<0xA0, 0xFFFD: break
            default: text.append(scalar)
            }
        }
        return String(text).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
    }

    private static func skipControlSequence(_ scalars: inout String.UnicodeScalarView.Iterator) {
        while let scalar = scalars.next(), !(0x40...0x7E).contains(scalar.value) {}
    }

    private static func skipControlString(_ scalars: inout String.UnicodeScalarView.Iterator) {
        while let scalar = scalars.next() {
            if scalar.value == 0x07 { return }
            if scalar.value == 0x1B {
                _ = scalars.next()
                return
            }
        }
    }

    /// The telling lines of `bytes`, joined with ` / `, at most about 800 characters; empty when there are none.
    ///
    /// - The runtime's and the sanitizers' messages wherever they are: `Fatal error: ...`, `Precondition failed`,
    ///   a sanitizer's `ERROR:` line and its `SUMMARY:`.
    /// - Of the backtracer's report (from its first `Program crashed` or `*** Signal` line): what it says crashed, and
    ///   the crashed thread's first frames, without their addresses; never its registers, memory or images.
    /// - Without any of those, the last three lines before the report.
    static func excerpt(_ bytes: [UInt8]) -> String {
        let lines = lines(bytes)
        let reportStart = lines.firstIndex { $0.contains("Program crashed:") || $0.hasPrefix("*** Signal") }
        let before = lines[..<(reportStart ?? lines.endIndex)]
        let keywords = [
            "Fatal error", "fatal error", "Precondition failed", "Assertion failed", "Unexpectedly found nil",
            "ERROR: ", "SUMMARY: ",
        ]
        var picked = before.filter { line in keywords.contains { line.contains($0) } }
        if picked.isEmpty { picked = Array(before.suffix(3)) }
        if let reportStart { picked += backtrace(lines[reportStart...]) }
        var result: [String] = []
        var length = 0
        for line in picked where !result.contains(line) {
            let shown = line.count > 240 ? line.prefix(240) + "…" : line
            length += shown.count
            if length > 800 { break }
            result.append(shown)
        }
        return result.joined(separator: " / ")
    }

    /// The backtracer's lines worth reading: its "Program crashed" line (not the one that says it is backtracing) and
    /// the crashed thread's first three frames.
    private static func backtrace(_ report: ArraySlice<String>) -> [String] {
        var picked: [String] = []
        var frames = -1  // not yet in the crashed thread
        for line in report {
            if line.hasPrefix("Registers:") || line.hasPrefix("Images") { break }
            if let start = line.range(of: "Program crashed:")?.lowerBound, !line.contains("Backtracing") {
                // `*** Program crashed: ... ***`, or in colour `💣 Program crashed: ...`
                picked.append(withoutAddresses(String(line[start...]).trimmingCharacters(in: ["*", " "])))
            } else if line.hasPrefix("Thread "), line.hasSuffix("crashed:") {
                picked.append(line)
                frames = 0
            } else if frames >= 0, frames < 3, line.first?.isNumber == true {
                picked.append(withoutAddresses(line))
                frames += 1
            }
        }
        return picked
    }

    /// `line` without its hexadecimal addresses (`at 0x00007f...`, `0x0000...`) and the backtracer's `[ra]` marks.
    private static func withoutAddresses(_ line: String) -> String {
        func isAddress(_ word: Substring) -> Bool { word.hasPrefix("0x") && word.count > 6 }
        let words = line.split(separator: " ")
        return words.indices.filter { index in
            let word = words[index]
            if isAddress(word) || word == "[ra]" || word == "[async]" { return false }
            return !(word == "at" && index + 1 < words.count && isAddress(words[index + 1]))
        }
        .map { words[$0] }.joined(separator: " ")
    }
}
