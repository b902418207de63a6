// GoldenFile.swift: a golden file on disk: its header record, then one trace a line.

import Foundation

/// A golden file: the header record that names what recorded it (GoldenHeader), then one trace a line.
public struct GoldenFile: Sendable {
    /// What recorded the traces.
    public var header: GoldenHeader
    /// The traces, in seed order.
    public var traces: [GoldenTrace]

    /// A golden file's contents.
    public init(header: GoldenHeader, traces: [GoldenTrace]) {
        self.header = header
        self.traces = traces
    }

    /// Why the replay refuses a golden file.
    public enum Refusal: Error, CustomStringConvertible, Equatable {
        /// The first line is not a header record.
        case noHeader(file: String)
        /// The header says the traces were recorded on one of our styles.
        case recordedOnStyle(file: String, library: String)
        /// The header names another library or version than the interpreter's original.
        case otherLibrary(file: String, recorded: String, expected: String)
        /// The header's harness names lanes otherwise than this one, and the file holds events where they differ.
        case otherHarness(file: String, recorded: Int)

        /// What was wrong, and what to do.
        public var description: String {
            switch self {
            case .noHeader(let file):
                return "\(file) has no header record: a golden file's first line names the library, version, commit, "
                    + "recording day and harness that recorded it (docs/differential-traces.md, Re-recording)"
            case .recordedOnStyle(let file, let library):
                return "\(file) was recorded on \(library), one of our styles: a golden trace is recorded on the "
                    + "original only"
            case .otherLibrary(let file, let recorded, let expected):
                return "\(file) was recorded on \(recorded); this interpreter replays \(expected)"
            case .otherHarness(let file, let recorded):
                return "\(file) was recorded by harness \(recorded), which names some of its events' lanes otherwise "
                    + "than harness \(DifferentialHarness.version): record it again on the original"
            }
        }
    }

    /// The header line's wrapper: `{"header":{...}}`, a key no trace has.
    private struct HeaderLine: Codable {
        var header: GoldenHeader
    }

    /// Reads `url` as a golden file of `interpreter`'s original, with its first `limit` traces (all by default).
    /// Throws a `Refusal` if the file does not name that original as what recorded it, or was recorded by a harness
    /// that names lanes otherwise than this one where the file has events.
    public static func read<I: TraceInterpreter>(_ url: URL, of interpreter: I.Type, first limit: Int = .max) throws
        -> GoldenFile
    {
        let name = url.lastPathComponent
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
        let decoder = JSONDecoder()
        guard let first = lines.first, let line = try? decoder.decode(HeaderLine.self, from: Data(first.utf8)) else {
            throw Refusal.noHeader(file: name)
        }
        let header = line.header
        guard header.origin == .original else { throw Refusal.recordedOnStyle(file: name, library: header.library) }
        let expected = I.originalLibrary
        guard header.library == expected.name, header.version == expected.version else {
            throw Refusal.otherLibrary(
                file: name, recorded: "\(header.library) \(header.version)",
                expected: "\(expected.name) \(expected.version)")
        }
        let traces = try lines.dropFirst().prefix(limit).map {
            try decoder.decode(GoldenTrace.self, from: Data($0.utf8))
        }
        if header.harness != DifferentialHarness.version, !readsTheSame(harness: header.harness, traces) {
            throw Refusal.otherHarness(file: name, recorded: header.harness)
        }
        return GoldenFile(header: header, traces: traces)
    }

    /// Whether traces recorded by `harness` read the same under this one: harness 1 differs from 2 only in the lane
    /// of events it put in the other lane (DifferentialHarness), so traces without such an event do.
    static func readsTheSame(harness: Int, _ traces: [GoldenTrace]) -> Bool {
        guard harness == 1, DifferentialHarness.version == 2 else { return false }
        let otherLane = TraceLog.otherLane + " "
        return !traces.contains { $0.trace.steps.contains { $0.contains { $0.hasPrefix(otherLane) } } }
    }

    /// How many traces a golden file holds, without decoding them.
    public static func count(_ url: URL) throws -> Int {
        try String(contentsOf: url, encoding: .utf8).split(separator: "\n").count - 1
    }

    /// Writes the file: the header record, then one trace a line, keys sorted, so that a re-recording diffs line by
    /// line.
    public func write(to url: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var text = String(decoding: try encoder.encode(HeaderLine(header: header)), as: UTF8.self) + "\n"
        for trace in traces {
            text += String(decoding: try encoder.encode(trace), as: UTF8.self) + "\n"
        }
        try text.write(to: url, atomically: true, encoding: .utf8)
    }
}
