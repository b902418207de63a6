// Coverage.swift: how often the generator uses each kind of step, printed as a table.

/// Counts of step kinds over a run of generated programs.
public struct Coverage: Sendable {
    /// Each step kind and how many steps of that kind the programs have.
    public private(set) var counts: [String: Int] = [:]
    /// How many programs were counted.
    public private(set) var programs = 0

    /// The counts over the programs of seeds `seeds`.
    public init<I: TraceInterpreter>(_ interpreter: I.Type, seeds: ClosedRange<UInt64>) {
        for seed in seeds {
            programs += 1
            for kind in I.stepKinds(I.program(seed: seed)) { counts[kind, default: 0] += 1 }
        }
    }

    /// The table, in markdown: one row a step kind, in alphabetical order.
    public func table(title: String) -> String {
        var lines = ["| \(title): step kind | steps in \(programs) programs |", "|---|--:|"]
        for (kind, count) in counts.sorted(by: { $0.key < $1.key }) { lines.append("| `\(kind)` | \(count) |") }
        return lines.joined(separator: "\n")
    }
}
