// GoldenTrace.swift: a program's trace as the original produced it, one JSON object a line in a golden file
// (GoldenFile), after the header record.

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
}
