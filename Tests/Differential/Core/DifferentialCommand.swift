// DifferentialCommand.swift: the command that prints programs and coverage, records golden traces and replays them.
//
// The same entry point serves this repository's `differential-traces` command (interpreters compiled against our
// styles) and the throwaway recording package (an interpreter compiled against the original), whose `main.swift`
// is one line: `DifferentialCommand.main(interpreters: [PKInterpreter.self])` (`BoltsInterpreter`, `FBLInterpreter`).

import Foundation

/// The command line of the differential traces.
public enum DifferentialCommand {
    static let usage = """
        usage: differential-traces <command> <original> [options]
          program  <original> <seed>                       the program of one seed
          run      <original> <program> [--runs R]         runs a program (a seed's or one written by hand) R times
                                                           here and prints each distinct trace with its count (R: 1)
          programs <original> [--count N]                  seeds 1...N and their programs, a line each (tab between)
          coverage <original> [--count N]                  the step kinds of seeds 1...N, as a table (N: 2000)
          record   <original> --out FILE --commit SHA [--count N] [--runs R]
                                                           traces of seeds 1...N, each run R times (R: 5), after a
                                                           header naming the library this was compiled against
                                                           at commit SHA, today's date and the harness version
          replay   <original> --golden FILE [--count N]    replays a golden file here; prints each mismatch; refuses
                                                           a file whose header does not name the original
        <original>: the start of the name of one of these originals, case-insensitive: 
        """

    /// Runs the command with the process's arguments; exits with 1 on a mismatch and 2 on a usage error.
    public static func main(interpreters: [any TraceInterpreter.Type]) {
        let arguments = Array(CommandLine.arguments.dropFirst())
        var names: [String] = []
        for interpreter in interpreters {
            names.append(original(of: interpreter))
            if arguments.count >= 2, names.last!.lowercased().hasPrefix(arguments[1].lowercased()) {
                run(interpreter, arguments)
                return
            }
        }
        FileHandle.standardError.write(Data((usage + names.joined(separator: ", ") + "\n").utf8))
        exit(2)
    }

    private static func original<I: TraceInterpreter>(of interpreter: I.Type) -> String { I.original }

    private static func run<I: TraceInterpreter>(_ interpreter: I.Type, _ arguments: [String]) {
        func option(_ name: String) -> String? {
            arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
        }
        let count = UInt64(option("--count") ?? "") ?? 2000
        switch arguments[0] {
        case "program":
            print(I.program(seed: UInt64(arguments.count > 2 ? arguments[2] : "1") ?? 1))
        case "run":
            guard arguments.count > 2 else { exit(2) }
            var seen: [(trace: String, count: Int)] = []
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            for _ in 0..<(Int(option("--runs") ?? "") ?? 1) {
                let trace = String(decoding: try! encoder.encode(I.run(arguments[2])), as: UTF8.self)
                if let index = seen.firstIndex(where: { $0.trace == trace }) {
                    seen[index].count += 1
                } else {
                    seen.append((trace, 1))
                }
            }
            for (trace, count) in seen { print("\(count)\t\(trace)") }
        case "programs":
            for seed in 1...count { print("\(seed)\t\(I.program(seed: seed))") }
        case "coverage":
            print(Coverage(I.self, seeds: 1...count).table(title: I.original))
        case "record":
            guard let out = option("--out"), let commit = option("--commit") else {
                FileHandle.standardError.write(Data(usage.utf8))
                exit(2)
            }
            let runs = Int(option("--runs") ?? "") ?? 5
            let header = GoldenHeader.recording(I.self, commit: commit)
            let traces = (1...count).map { Recording.record(I.self, seed: $0, runs: runs) }
            try! GoldenFile(header: header, traces: traces).write(to: URL(fileURLWithPath: out))
            let unstable = traces.reduce(0) { $0 + $1.unstable.count }
            let library = "\(header.library) \(header.version) at \(commit)"
            let origin =
                header.origin == .original ? "the original" : "our style: not a golden file, the replay refuses it"
            print("recorded \(traces.count) programs on \(library) (\(origin)), \(unstable) unstable steps")
        case "replay":
            guard let golden = option("--golden") else { exit(2) }
            let traces: [GoldenTrace]
            do {
                traces = try GoldenFile.read(URL(fileURLWithPath: golden), of: I.self, first: Int(count)).traces
            } catch {
                FileHandle.standardError.write(Data("refused: \(error)\n".utf8))
                exit(1)
            }
            var failed = 0
            for trace in traces {
                let comparison = TraceComparison(
                    golden: trace, replay: I.run(trace.program), declared: [], original: I.original)
                if !comparison.mismatches.isEmpty {
                    failed += 1
                    print(comparison.report)
                    print("mismatch: seed \(trace.seed), steps \(comparison.mismatches)\n")
                }
            }
            print("\(traces.count - failed) of \(traces.count) programs replay as recorded")
            exit(failed == 0 ? 0 : 1)
        default:
            FileHandle.standardError.write(Data(usage.utf8))
            exit(2)
        }
    }
}
