// GoldenTrace.swift: a program's trace as the original produced it, one JSON object a line in a golden file.

import Foundation

/// A program and the trace its original produced, recorded outside this repository (docs/differential-traces.md).
public struct GoldenTrace: Codable, Equatable, Sendable {
    /// The generator seed the program came from.
    public var seed: UInt64
    /// The program's text form.
    public var program: String
    /// The original's trace.
    public var trace: ProgramTrace
    /// The steps whose events varied between the recording runs on the original, and `-1` if the final states did: the
    /// original leaves those undefined, so the replay does not compare them.
    public var unstable: [Int]

    /// A golden trace.
    public init(seed: UInt64, program: String, trace: ProgramTrace, unstable: [Int]) {
        self.seed = seed
        self.program = program
        self.trace = trace
        self.unstable = unstable
    }

    /// The marker in `unstable` for the final states.
    public static let finalStates = -1

    /// Reads a golden file, one trace a line: the first `limit` traces, or all of them.
    public static func read(_ url: URL, first limit: Int = .max) throws -> [GoldenTrace] {
        let text = try String(contentsOf: url, encoding: .utf8)
        let decoder = JSONDecoder()
        return try text.split(separator: "\n").prefix(limit).map {
            try decoder.decode(GoldenTrace.self, from: Data($0.utf8))
        }
    }

    /// How many traces a golden file holds, without decoding them.
    public static func count(_ url: URL) throws -> Int {
        try String(contentsOf: url, encoding: .utf8).split(separator: "\n").count
    }

    /// Writes a golden file: one trace a line, keys sorted, so that a re-recording diffs line by line.
    public static func write(_ traces: [GoldenTrace], to url: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var text = ""
        for trace in traces {
            text += String(decoding: try encoder.encode(trace), as: UTF8.self) + "\n"
        }
        try text.write(to: url, atomically: true, encoding: .utf8)
    }
}
