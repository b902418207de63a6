// ProgramTrace.swift: what one run of a program did, and the interpreters that produce it.

/// What one run of a program did: each step's events (`TraceLog.stepLines`) and the final state of every promise.
public struct ProgramTrace: Codable, Equatable, Sendable {
    /// For each step, its events as lines `lane event`.
    public var steps: [[String]]
    /// The final state of each promise the program made, in the order they were made (`n3 f:7`, `n4 r:E2`, `n5 p`).
    public var final: [String]

    /// A trace of these steps and final states.
    public init(steps: [[String]], final: [String]) {
        self.steps = steps
        self.final = final
    }
}

/// Runs programs over one promise library's API: written once against the original's names, so that the same source
/// compiles against the original (when recording) and against our style (when replaying).
public protocol TraceInterpreter {
    /// The original whose behaviour the golden traces record, with its version: `PromiseKit 8.2.0`.
    static var original: String { get }
    /// The golden file's name, without its folder: `PromiseKit-8.2.0.jsonl`.
    static var goldenFileName: String { get }
    /// The original, as a golden file's header must name it.
    static var originalLibrary: TracedLibrary { get }
    /// The library this source was compiled against: `originalLibrary` in the recording package, our style here.
    static var compiledAgainst: TracedLibrary { get }
    /// The program of generator seed `seed`, in its text form.
    static func program(seed: UInt64) -> String
    /// The kind of each step of `program` (for the coverage table).
    static func stepKinds(_ program: String) -> [String]
    /// Runs `program` on the library this source was compiled against, on the calling thread (the driver).
    static func run(_ program: String) -> ProgramTrace
}
