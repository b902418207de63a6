// GoldenHeader.swift: the first record of a golden file, naming what recorded it.
//
// A golden trace is only worth what recorded it. Its file therefore begins with one record that names the library
// (its repository, version and commit), the day of the recording and the harness version, and says whether the
// library was the original or one of our styles. The replay refuses a file without that record, a file recorded on a
// style, a file of another library or version, and a file of a harness whose lanes it does not read the same way.

import Foundation

/// The version of the harness (TraceLog, Quiescence and the interpreters' events) that records and replays traces.
///
/// - 1: the first recordings (2026-11-24). An event that a handler recorded inside a `sync` onto a queue that is not
///   the program's went to the other lane `g`.
/// - 2: such an event goes to the lane of the program's queue whose block called the `sync` (TraceLog's header). It
///   names every other event as version 1 did, so a version 1 file without an event in the other lane reads the same.
public enum DifferentialHarness {
    /// The version this build of the harness records and replays.
    public static let version = 2
}

/// What the first line of a golden file says about the recording.
public struct GoldenHeader: Codable, Equatable, Sendable {
    /// Whether the traces were recorded on the original library or on one of this repository's styles.
    public enum Origin: String, Codable, Sendable {
        /// The original library: the only origin the replay accepts.
        case original
        /// One of our styles: a recording made for a look, never a golden file.
        case style
    }

    /// The library the traces were recorded on: `PromiseKit`, or a style's module name.
    public var library: String
    /// The library's version: `8.2.0`.
    public var version: String
    /// Where the library's source is: `https://github.com/mxcl/PromiseKit`.
    public var repository: String
    /// The commit of `repository` that was built for the recording.
    public var commit: String
    /// The day of the recording, `yyyy-MM-dd` (UTC).
    public var recorded: String
    /// The harness version that recorded (`DifferentialHarness.version`).
    public var harness: Int
    /// Whether `library` is the original or our style.
    public var origin: Origin

    /// A header.
    public init(
        library: String, version: String, repository: String, commit: String, recorded: String, harness: Int,
        origin: Origin
    ) {
        self.library = library
        self.version = version
        self.repository = repository
        self.commit = commit
        self.recorded = recorded
        self.harness = harness
        self.origin = origin
    }

    /// The header of a recording made now, by this harness, with `interpreter` as compiled here: on the original when
    /// the original's module is there, else on our style.
    public static func recording<I: TraceInterpreter>(_ interpreter: I.Type, commit: String) -> GoldenHeader {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        let today = formatter.string(from: Date())
        let library = I.compiledAgainst
        return GoldenHeader(
            library: library.name, version: library.version, repository: library.repository, commit: commit,
            recorded: today, harness: DifferentialHarness.version, origin: library.isOriginal ? .original : .style)
    }
}

/// A library a trace interpreter can be compiled against.
public struct TracedLibrary: Sendable, Equatable {
    /// Its module or package name: `PromiseKit`, `PromiseKitStyle`.
    public var name: String
    /// Its version: `8.2.0`; `this repository` for a style.
    public var version: String
    /// Where its source is.
    public var repository: String
    /// Whether it is the original (true) or one of our styles.
    public var isOriginal: Bool

    /// A library.
    public init(name: String, version: String, repository: String, isOriginal: Bool) {
        self.name = name
        self.version = version
        self.repository = repository
        self.isOriginal = isOriginal
    }

    /// One of this repository's styles.
    public static func style(_ name: String) -> TracedLibrary {
        TracedLibrary(name: name, version: "this repository", repository: "this repository", isOriginal: false)
    }
}
