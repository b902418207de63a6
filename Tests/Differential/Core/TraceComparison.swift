// TraceComparison.swift: a replayed trace against the golden one, and what a mismatch prints.

import Foundation

/// A divergence our style declares on purpose: the program, the step (or `GoldenTrace.finalStates`) and why.
public struct DeclaredDivergence: Sendable {
    /// The generator seed of the program.
    public var seed: UInt64
    /// The step whose trace differs, or `GoldenTrace.finalStates`.
    public var step: Int
    /// Why our style differs there (a crash, race or bug of the original that we do not copy).
    public var reason: String

    /// A declared divergence.
    public init(seed: UInt64, step: Int, reason: String) {
        self.seed = seed
        self.step = step
        self.reason = reason
    }
}

/// The outcome of comparing one replayed program with its golden trace.
public struct TraceComparison: Sendable {
    /// The steps (and `GoldenTrace.finalStates`) where the replay differs from the golden trace and nothing declares it.
    public var mismatches: [Int]
    /// The declared divergences that the replay did show.
    public var declaredSeen: [Int]
    /// The steps the comparison left out because the original does not define them.
    public var skippedUnstable: Int
    /// The report of the first mismatch, empty if there is none.
    public var report: String

    /// Compares `replay` with `golden`, leaving out the golden trace's unstable steps and the steps `declared` lists.
    public init(golden: GoldenTrace, replay: ProgramTrace, declared: [DeclaredDivergence], original: String) {
        var differing: [Int] = []
        let count = max(golden.trace.steps.count, replay.steps.count)
        for step in 0..<count {
            let expected = step < golden.trace.steps.count ? golden.trace.steps[step] : ["(no step)"]
            let actual = step < replay.steps.count ? replay.steps[step] : ["(no step)"]
            if expected != actual { differing.append(step) }
        }
        if golden.trace.final != replay.final { differing.append(GoldenTrace.finalStates) }
        let unstable = Set(golden.unstable)
        let declaredSteps = Set(declared.filter { $0.seed == golden.seed }.map(\.step))
        mismatches = differing.filter { !unstable.contains($0) && !declaredSteps.contains($0) }
        declaredSeen = differing.filter { declaredSteps.contains($0) }
        skippedUnstable = unstable.count
        report = mismatches.first.map { Self.describe(golden, replay, from: $0, original: original) } ?? ""
    }

    private static func describe(_ golden: GoldenTrace, _ replay: ProgramTrace, from step: Int, original: String)
        -> String
    {
        let steps = golden.program.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        var lines = ["program of seed \(golden.seed) (\(steps.count) steps):"]
        for (index, text) in steps.enumerated() {
            lines.append("  \(index == step ? ">" : " ") \(index): \(text)")
        }
        if step == GoldenTrace.finalStates {
            lines.append("the final states differ")
            lines.append("  \(original): \(golden.trace.final.joined(separator: ", "))")
            lines.append("  ours: \(replay.final.joined(separator: ", "))")
        } else {
            lines.append("first difference at step \(step): \(step < steps.count ? steps[step] : "?")")
            let expected = step < golden.trace.steps.count ? golden.trace.steps[step] : []
            let actual = step < replay.steps.count ? replay.steps[step] : []
            lines.append("  \(original): \(expected.joined(separator: " | "))")
            lines.append("  ours: \(actual.joined(separator: " | "))")
        }
        lines.append("both traces, step by step (\(original) / ours):")
        for index in 0..<max(golden.trace.steps.count, replay.steps.count) {
            let expected = index < golden.trace.steps.count ? golden.trace.steps[index] : []
            let actual = index < replay.steps.count ? replay.steps[index] : []
            let mark = expected == actual ? " " : "!"
            lines.append("  \(mark) \(index): \(expected.joined(separator: " | "))")
            if expected != actual { lines.append("    \(index): \(actual.joined(separator: " | "))") }
        }
        lines.append("  final: \(golden.trace.final.joined(separator: ", "))")
        if golden.trace.final != replay.final { lines.append("  ours:  \(replay.final.joined(separator: ", "))") }
        return lines.joined(separator: "\n")
    }
}
