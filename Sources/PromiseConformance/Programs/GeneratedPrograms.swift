// GeneratedPrograms.swift: how many programs each generated clause runs, and from which seed.

import Foundation

/// How many programs each generated clause (`generated.*`) runs, and the seed they are made from.
///
/// The programs are a function of the seed, so a run is the same every time with the same seed, and a failure can be
/// replayed from the report, which prints both (or from the failing program's text, `--program`).
public struct GeneratedPrograms: Sendable, Hashable, CustomStringConvertible {
    /// How many programs each generated clause runs.
    public var count: Int
    /// The seed the programs are made from.
    public var seed: UInt64

    /// The default number of programs per generated clause: 300.
    ///
    /// Chosen so that every subtle flaw the suite's tests plant is found in every run (each needs at most a few dozen
    /// programs), and so that a run over one adapter takes about half as long again as the fixed clauses alone.
    public static let defaultCount = 300

    /// The default seed.
    public static let defaultSeed: UInt64 = 20_261_126

    /// The environment variable that sets the count of ``standard``: `PROMISE_CONFORMANCE_PROGRAMS`.
    ///
    /// For a CI step that runs whole suites under a sanitizer, many times slower, and wants fewer programs there
    /// without changing its code; child processes of isolated runs inherit it, so every clause runs the same programs.
    public static let countVariable = "PROMISE_CONFORMANCE_PROGRAMS"

    /// The programs a run makes unless told otherwise: ``defaultCount`` per clause (or the count that
    /// ``countVariable`` sets), from ``defaultSeed``.
    public static let standard = fromEnvironment(ProcessInfo.processInfo.environment)

    /// ``defaultCount`` programs from ``defaultSeed``, but for a count that `environment` sets under
    /// ``countVariable``: a whole number from 1 up. Any other value is ignored.
    static func fromEnvironment(_ environment: [String: String]) -> GeneratedPrograms {
        guard let text = environment[countVariable], let count = Int(text), count > 0 else {
            return GeneratedPrograms()
        }
        return GeneratedPrograms(count: count)
    }

    /// `count` programs per generated clause, made from `seed`.
    public init(count: Int = defaultCount, seed: UInt64 = defaultSeed) {
        self.count = count
        self.seed = seed
    }

    /// `300 programs per generated clause, seed 20261126`.
    public var description: String {
        "\(count) program\(count == 1 ? "" : "s") per generated clause, seed \(seed)"
    }
}
