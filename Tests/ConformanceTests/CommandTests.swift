import FlawedPromises
import Foundation
import PromiseConformance
import TestSupport
import Testing

/// The command-line front end: options, formats, exit status.
@Suite struct Command {
    final class Capture: Sendable {
        private let lines = Locked<[String]>([])
        func write(_ line: String) { lines.withLock { $0.append(line) } }
        var text: String { lines.withLock { $0.joined(separator: "\n") } }
    }

    let adapters: [any PromiseAdapter] = [ReferenceAdapter(), FlawedAdapter(flaw: .retainCycle)]

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    func run(_ arguments: [String]) async -> (status: Int32, output: String, errors: String) {
        let output = Capture()
        let errors = Capture()
        // In this process: re-executing the test binary for each clause would not reach the command.
        let status = await ConformanceCommand.run(
            adapters: adapters, arguments: arguments + ["--in-process"], output: output.write,
            errorOutput: errors.write, commandName: "promise-conformance")
        return (status, output.text, errors.text)
    }

    /// Runs the command with `arguments`, and expects it to refuse them with status 2 and an error saying `message`.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    func expectUsageError(
        _ arguments: [String], saying message: String, sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        let (status, _, errors) = await run(arguments)
        #expect(status == 2, sourceLocation: sourceLocation)
        #expect(errors.contains(message), "\(errors)", sourceLocation: sourceLocation)
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func textMatrixAndFailureStatus() async {
        let (status, output, _) = await run(["--clause", "swift.release,2.2.7.1"])
        #expect(status == 1)
        let lines = output.split(separator: "\n").map(String.init)
        #expect(lines[0].hasPrefix("clause") && lines[0].hasSuffix("Reference  Flawed(retainCycle)"))
        #expect(lines.contains { $0.hasPrefix("2.2.7.1 ") && $0.hasSuffix("pass       pass") })
        #expect(lines.contains { $0.hasPrefix("swift.release ") && $0.hasSuffix("pass       FAIL") })
        #expect(output.contains("Reference: 2 passed, 0 failed, 0 deviations, 0 not applicable"))
        #expect(output.contains("Flawed(retainCycle): 1 passed, 1 failed, 0 deviations, 0 not applicable"))
        #expect(output.contains("Flawed(retainCycle) swift.release: FAIL:"))
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func markdownWithStyleFilter() async {
        let (status, output, _) = await run(["--style", "REFERENCE", "--clause=2.3.2", "--format", "markdown"])
        #expect(status == 0)
        #expect(output.contains("| clause | title | Reference |"))
        #expect(output.contains("| `2.3.2.1` | adopting a pending promise waits | pass |"))
        #expect(!output.contains("Flawed"))
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func jsonDocument() async throws {
        let (status, output, _) = await run(["--clause", "swift.release", "--format", "json", "--timeout", "60"])
        #expect(status == 1)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        let styles = try #require(document["styles"] as? [[String: Any]])
        #expect(styles.map { $0["name"] as? String } == ["Reference", "Flawed(retainCycle)"])
        let results = try #require(styles[1]["results"] as? [[String: Any]])
        #expect(results.first?["status"] as? String == "failed")
        #expect(styles[1]["failed"] as? Int == 1)
    }

    /// `--programs` and `--seed` choose the generated clauses' programs, and the matrix says which it ran.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func programsAndSeed() async {
        let (status, output, _) = await run(["--clause", "generated.then", "--programs", "5", "--seed", "0x2a"])
        #expect(status == 1, "the flawed promise leaks: \(output)")
        #expect(output.contains("generated programs: 5 programs per generated clause, seed 42"), "\(output)")
        #expect(output.contains("broke swift.release"), "\(output)")
        await expectUsageError(["--programs", "many"], saying: "--programs needs a number of programs")
    }

    /// `--program` runs one program, as a failure prints it, and says what each implementation did.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func replayOneProgram() async {
        let (status, output, _) = await run(["--program", "p0 = pending; p1 = then p0 q1 ( -> v1 ) _; fulfil p0 v2"])
        #expect(status == 1, "\(output)")
        #expect(output.contains("program (3 steps): p0 = pending; p1 = then p0 q1 ( -> v1 ) _; fulfil p0 v2"))
        #expect(output.contains("Reference: does what the model requires"), "\(output)")
        #expect(output.contains("breaks swift.release"), "\(output)")
        await expectUsageError(["--program", "p0 = promise"], saying: "expected pending, cancellable")
    }

    /// `--coverage` prints the generator's table for each implementation's capabilities.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func coverage() async {
        let (status, output, _) = await run(["--coverage", "--style", "Reference"])
        #expect(status == 0)
        #expect(output.contains("generated programs for Reference: kind of step, and how many times it occurs"))
        #expect(output.contains("adopts itself"), "\(output)")
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func deviationsDoNotFailTheRun() async {
        let output = Capture()
        let status = await ConformanceCommand.run(
            adapters: [FlawedAdapter(flaw: .synchronousHandlers, deviations: ["2.2.4": "inline by design"])],
            arguments: ["--clause", "2.2.4", "--in-process"], output: output.write, errorOutput: { _ in })
        #expect(status == 0)
        #expect(output.text.contains("deviation"))
        #expect(output.text.contains("0 failed, 1 deviations"))
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func usageErrorsHelpAndList() async {
        #expect(await run(["--style", "nope"]).status == 2)
        #expect(await run(["--format", "yaml"]).status == 2)
        #expect(await run(["--clause", "9.9"]).status == 2)
        #expect(await run(["--bogus"]).status == 2)
        let help = await run(["--help"])
        #expect(help.status == 0 && help.output.contains("usage: promise-conformance"))
        // How to read the matrix: every status, and how long a run takes.
        for word in ["Reading the matrix", "pass ", "FAIL ", "deviation ", "n/a ", "(helper)", "How long"] {
            #expect(help.output.contains(word), "\(word)")
        }
        let list = await run(["--list", "--clause", "swift."])
        #expect(list.status == 0 && list.output.contains("swift.deepChain"))
        #expect(!list.output.contains("2.2.4"))
    }

    /// `--list` shows every case of every clause listed, as a deviation key names it, and what a clause needs or why it
    /// is not run; each key it shows is one ``Conformance/deviationErrors(_:)`` accepts.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func listShowsEachClausesCases() async {
        let list = await run(["--list"])
        #expect(list.status == 0)
        let lines = list.output.split(separator: "\n").map(String.init)
        let keys = lines.filter { $0.hasPrefix("    case ") }.map { String($0.dropFirst("    case ".count)) }
        #expect(keys == Clause.all.flatMap { clause in clause.cases.map { "\(clause.id)#\($0)" } })
        #expect(keys.contains("2.2.4#then on an already-fulfilled promise"))
        #expect(Conformance.deviationErrors(Dictionary(uniqueKeysWithValues: keys.map { ($0, "") })).isEmpty)
        #expect(lines.contains("    needs capability [race]"))
        #expect(
            lines.contains { $0.hasPrefix("    not run (no meaning in typed Swift): Swift closures have no `this`") })
        let cancel = await run(["--list", "--clause", "swift.cancel"])
        #expect(
            cancel.output.split(separator: "\n").prefix(4) == [
                "swift.cancel  cancellation",
                "    Cancelling a pending promise settles it as cancelled once, and promises derived from it without a "
                    + "rejection handler are cancelled too; cancelling a settled promise changes nothing.",
                "    needs capability [cancellation]",
                "    case swift.cancel#cancel a pending promise",
            ])
    }

    /// The command's default: each clause in a child process (the executable started again with `--run-one`). The
    /// fixture's first promise frees an unsettled chain recursively, which overflows the stack in swift.deepChain.
    @Test(.offThePool) func crashingClauseFailsWithItsSignalAndTheRunGoesOn() throws {
        let fixture = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("crash-isolation-fixture")
        let process = Process()
        process.executableURL = fixture
        process.arguments = [
            "--clause", "2.2.7.1,swift.deepChain,swift.release", "--style",
            "Flawed(recursiveRelease),Flawed(retainCycle)",
            "--format", "json", "--timeout",
            "\(TestEnvironment.hangGuard)",
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 1)
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let styles = try #require(document["styles"] as? [[String: Any]])
        #expect(styles.map { $0["name"] as? String } == ["Flawed(recursiveRelease)", "Flawed(retainCycle)"])
        func results(_ style: Int) throws -> [String: (status: String, message: String)] {
            let entries = try #require(styles[style]["results"] as? [[String: Any]])
            var byClause: [String: (status: String, message: String)] = [:]
            for entry in entries {
                let clause = try #require(entry["clause"] as? String)
                byClause[clause] = (entry["status"] as? String ?? "", entry["message"] as? String ?? "")
            }
            return byClause
        }
        let crashing = try results(0)
        #expect(crashing["2.2.7.1"]?.status == "passed")
        #expect(crashing["swift.deepChain"]?.status == "failed")
        let message = crashing["swift.deepChain"]?.message ?? ""
        #expect(message.contains("crashed: the process running swift.deepChain"), "\(message)")
        TestEnvironment.expectStackOverflowCrash(message)
        // The crash is the dropped chain's: the message names that case, and the clause's other cases ran (in a second
        // child process) and passed.
        let deepChain = try #require(
            (styles[0]["results"] as? [[String: Any]])?.first { $0["clause"] as? String == "swift.deepChain" })
        let cases = try #require(deepChain["cases"] as? [[String: Any]])
        #expect(cases.map { $0["name"] as? String } == Clause.named("swift.deepChain")?.cases)
        let crashed = cases.filter { $0["outcome"] as? String == "crashed" }.compactMap { $0["name"] as? String }
        #expect(crashed.count == 1 && message.hasPrefix("\(crashed.first ?? "?"): crashed: "), "\(message)")
        #expect(cases.filter { $0["outcome"] as? String == "passed" }.count == cases.count - 1, "\(cases)")
        #expect(crashing["swift.release"]?.status == "passed", "the clause after the crash ran")
        #expect(try results(1)["swift.release"]?.status == "failed")
    }
}
