import Dispatch
import Foundation

// Crash isolation: one clause per child process, so that a clause that crashes the process (a stack overflow, a trap,
// a signal) is reported as failed with its signal, and the clauses after it still run. The command re-executes
// itself (`ConformanceCommand`); a test target runs each clause as a Swift Testing exit test
// (`Conformance.runIsolated`). Both children print one `ResultRecord` line and exit with `childExitCode`.

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
    let casesRun: [String]

    init(_ result: ClauseResult) {
        clause = result.clause.id
        status = result.status.kind
        message = result.status.message
        seconds = result.duration.seconds
        graceWaits = result.graceWaits
        assimilatedByHelper = result.assimilatedByHelper
        casesRun = result.casesRun
    }

    /// The line the child prints.
    var line: String {
        let data = (try? JSONEncoder().encode(self)) ?? Data()
        return Self.marker + String(decoding: data, as: UTF8.self)
    }

    /// The outcome in a child's standard output, if it got as far as printing one.
    init?(parsing output: String) {
        guard
            let line = output.split(separator: "\n").last(where: { $0.hasPrefix(Self.marker) }),
            let outcome = try? JSONDecoder().decode(Self.self, from: Data(line.dropFirst(Self.marker.count).utf8))
        else { return nil }
        self = outcome
    }

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
        return ClauseResult(
            clause: clause, status: status, duration: .milliseconds(Int(seconds * 1000)), graceWaits: graceWaits,
            assimilatedByHelper: assimilatedByHelper, casesRun: casesRun)
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

extension Conformance {
    /// The exit status of a child process that ran its clause to the end and printed the outcome (whatever the
    /// outcome): neither success nor a common failure status, so that nothing else is taken for it.
    static let childExitCode: Int32 = 3

    /// The result of a clause whose child process did not print an outcome: it died of `signal`, or exited with
    /// `exitCode`. `errorOutput` is the child's standard error (a Swift runtime error, say), of which the end is kept.
    static func diedResult(
        _ clause: Clause, declared: String?, signal: Int32?, exitCode: Int32?, errorOutput: String, duration: Duration
    ) -> ClauseResult {
        var message: String
        if let signal {
            message = "crashed: the process running \(clause.id) was killed by signal \(signal) (\(signalName(signal)))"
            if signal == SIGSEGV || signal == SIGBUS { message += "; a stack overflow shows as this" }
        } else {
            message = "crashed: the process running \(clause.id) exited with status \(exitCode ?? -1) before reporting"
        }
        let lines = errorOutput.split(separator: "\n")
        // A sanitizer that caught the crash (a stack overflow under the address sanitizer, say) names it on its first
        // line, above a long stack trace: keep that line too.
        if let report = lines.first(where: { $0.contains("Sanitizer: ") && $0.contains("ERROR: ") }) {
            message += "; \(report.drop(while: { $0 != "E" }))"
        }
        let lastLines = lines.suffix(3).joined(separator: " / ")
        if !lastLines.isEmpty { message += "; its last error output: \(lastLines)" }
        return ClauseResult(clause: clause, status: status(declared: declared, failure: message), duration: duration)
    }

    /// `SIGSEGV`, `SIGILL`, ... for the signals a crash is made of.
    static func signalName(_ signal: Int32) -> String {
        let names: [Int32: String] = [
            SIGSEGV: "SIGSEGV", SIGBUS: "SIGBUS", SIGILL: "SIGILL", SIGTRAP: "SIGTRAP", SIGABRT: "SIGABRT",
            SIGFPE: "SIGFPE", SIGKILL: "SIGKILL", SIGTERM: "SIGTERM",
        ]
        return names[signal] ?? "signal \(signal)"
    }

    /// The path of this process's executable, which the command re-executes for each clause.
    static var currentExecutable: URL {
        #if os(Linux)
            URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        #else
            Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        #endif
    }

    /// Runs `executable` with `arguments` to the end, on a thread of its own, and returns its standard output, its
    /// standard error and how it ended. The child is killed after `limit` (it has its own time limit per clause; this
    /// one only guards against a child that cannot even exit).
    static func runChild(_ executable: URL, _ arguments: [String], limit: Duration) async -> ChildEnd {
        await withCheckedContinuation { continuation in
            let thread = Thread {
                continuation.resume(returning: runChildBlocking(executable, arguments, limit: limit))
            }
            thread.name = "PromiseConformance child"
            thread.start()
        }
    }

    /// How a child process ended.
    struct ChildEnd: Sendable {
        var output = ""
        var errorOutput = ""
        var signal: Int32?
        var exitCode: Int32?
        var launchError: String?
    }

    private static func runChildBlocking(_ executable: URL, _ arguments: [String], limit: Duration) -> ChildEnd {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return ChildEnd(launchError: "could not start \(executable.path): \(error)")
        }
        let watchdog = DispatchWorkItem { [process] in if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + limit.dispatchInterval, execute: watchdog)
        let errorData = Locked(Data())
        let readErrors = DispatchGroup()
        DispatchQueue.global().async(group: readErrors) {
            let data = errors.fileHandleForReading.readDataToEndOfFile()
            errorData.withLock { $0 = data }
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        readErrors.wait()
        process.waitUntilExit()
        watchdog.cancel()
        var end = ChildEnd(
            output: String(decoding: outputData, as: UTF8.self),
            errorOutput: String(decoding: errorData.withLock { $0 }, as: UTF8.self))
        if process.terminationReason == .uncaughtSignal {
            end.signal = process.terminationStatus
        } else {
            end.exitCode = process.terminationStatus
        }
        return end
    }
}
