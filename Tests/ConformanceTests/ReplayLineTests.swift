import FlawedPromises
import PromiseConformance
import TestSupport
import Testing

/// A failing generated program as a report gives it: the rule, the smallest program and the line that replays it
/// first, each on a line of its own, the replay in the words of whoever ran the suite (a Swift call, or the command by
/// the name it was started as); then what the model requires and what the promise did, wrapped; the clause's other
/// failing programs counted, one line each.
@Suite struct ReplayLines {
    static let clause = Clause.named("generated.then")!
    static let programs = GeneratedPrograms(count: 20)
    /// Runs every handler inside the call that settles or registers: the first program breaks 2.2.4, and so does
    /// every one after it.
    static let flawed = FlawedAdapter(flaw: .synchronousHandlers)

    /// The lines of the first failing program's report, and the other failures' messages.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    static func failures() async throws -> (first: [String], others: [String]) {
        let report = await Conformance.run(
            flawed, clauses: [clause], timeout: .seconds(90), programs: programs)
        let messages = report.results[0].caseResults.compactMap { $0.outcome == .passed ? nil : $0.message }
        let first = try #require(messages.first)
        return (first.split(separator: "\n").map(String.init), Array(messages.dropFirst()))
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func aSwiftRunGivesTheCallThatReplaysItsSmallestProgram() async throws {
        let (lines, others) = try await Self.failures()
        try #require(lines.count >= 5, "\(lines)")
        #expect(lines[0].contains("broke 2.2.4 (handlers run asynchronously) in program "), "\(lines[0])")
        #expect(lines[0].hasSuffix(" of seed \(Self.programs.seed)"), "\(lines[0])")
        #expect(lines[1].hasPrefix("  smallest program ("), "\(lines[1])")
        let call = "  replay: print(try Conformance.replay(\""
        let end = "\", on: adapter)), with adapter the FlawedAdapter this run used"
        #expect(lines[2].hasPrefix(call) && lines[2].hasSuffix(end), "\(lines[2])")
        #expect(lines[3].hasPrefix("  the model requires: "), "\(lines[3])")
        #expect(lines.contains { $0.hasPrefix("  the promise did: ") }, "\(lines)")
        for line in lines.dropFirst(3) {
            #expect(line.count <= 100, "wrapped to 100 characters: \(line)")
        }
        // The call, made as the line gives it, breaks the same rule with the same program.
        let text = String(lines[2].dropFirst(call.count).dropLast(end.count))
        #expect(lines[1].hasSuffix("): \(text)"))
        let verdict = try Conformance.replay(text, on: Self.flawed)
        #expect(!verdict.conforms)
        #expect(verdict.broken.contains { $0.hasPrefix("2.2.4: ") }, "\(verdict)")
        #expect(verdict.description.hasPrefix("\(Self.flawed.name): \n  breaks 2.2.4: "), "\(verdict)")
        // The clause stops at its failure limit; the failures after the first are counted, one line each.
        #expect(others.count == 2)
        for other in others {
            #expect(!other.contains("\n"), "\(other)")
            #expect(other.hasPrefix("broke 2.2.4 too (program "), "\(other)")
            #expect(other.hasSuffix("steps, not shrunk)"), "\(other)")
        }
    }

    /// A command gives its own name, the one it was started by, and the matrix's details indent a report's lines.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func aCommandGivesItsOwnName() async {
        let output = Locked<[String]>([])
        let status = await ConformanceCommand.run(
            adapters: [Self.flawed],
            arguments: ["--clause", "generated.then", "--programs", "20", "--in-process"],
            output: { line in output.withLock { $0.append(line) } }, errorOutput: { _ in },
            commandName: "my-promise-conformance")
        #expect(status == 1)
        let text = output.withLock { $0.joined(separator: "\n") }
        let lines = text.split(separator: "\n").map(String.init)
        let details = lines.drop { $0 != "details:" }.dropFirst().prefix { !$0.hasPrefix("generated programs:") }
        #expect(details.first?.hasPrefix("  \(Self.flawed.name) generated.then: ") == true, "\(text)")
        #expect(
            details.contains {
                $0.hasPrefix("      replay: my-promise-conformance --style '\(Self.flawed.name)' --program '")
            },
            "\(text)")
        #expect(details.dropFirst().allSatisfy { $0.hasPrefix("    ") }, "\(text)")
        #expect(!text.contains("Conformance.replay("), "\(text)")
    }
}
