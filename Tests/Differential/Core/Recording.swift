// Recording.swift: running a program several times on the original, keeping what it defines.

/// Records golden traces. Used in the throwaway package that compiles an interpreter against the original.
public enum Recording {
    /// Runs the program of `seed` `runs` times and keeps the first run's trace, marking as unstable every step (and
    /// the final states) whose trace varied between runs: the original does not define that part.
    public static func record<I: TraceInterpreter>(_ interpreter: I.Type, seed: UInt64, runs: Int) -> GoldenTrace {
        let program = I.program(seed: seed)
        let traces = (0..<max(runs, 1)).map { _ in I.run(program) }
        let first = traces[0]
        var unstable: [Int] = []
        for step in first.steps.indices where traces.contains(where: { $0.steps[step] != first.steps[step] }) {
            unstable.append(step)
        }
        if traces.contains(where: { $0.final != first.final }) { unstable.append(GoldenTrace.finalStates) }
        return GoldenTrace(seed: seed, program: program, trace: first, unstable: unstable)
    }
}
