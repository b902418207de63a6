// ProgramText.swift: reading a program's text form, and running its steps one by one.

/// The text form every generator writes: steps separated by "; ", each its words separated by spaces, and a step that
/// makes a node starting `nK=`.
public enum ProgramText {
    /// The steps of `program`, each as its words.
    public static func steps(_ program: String) -> [[String]] {
        program.split(separator: ";").map { $0.split(separator: " ").map(String.init) }
    }

    /// The words of `step` without the node it makes: `n3=then n1 q1 v5` gives `then n1 q1 v5`.
    public static func operation(_ step: Substring) -> [Substring] {
        (step.split(separator: "=", maxSplits: 1).last ?? step).split(separator: " ")
    }

    /// How a handler's result `r` reads in a coverage table: `pending` (nK, a pending node of the program), `promise`
    /// (pvK), `rejected promise` (pe:E), `throws` (t:E), `nothing` (ok) or `value`.
    public static func shape(_ r: Substring) -> String {
        if r.hasPrefix("n") { return "pending" }
        if r.hasPrefix("pv") { return "promise" }
        if r.hasPrefix("pe") { return "rejected promise" }
        if r.hasPrefix("t:") { return "throws" }
        return r == "ok" ? "nothing" : "value"
    }

    /// Runs the steps of `program` on the calling thread, the log's driver: each is performed, then the driver waits
    /// for the program to go quiet (Quiescence), recording `hang` if it does not. Returns each step's events and
    /// `final()`, the nodes' final states.
    public static func run(
        _ program: String, log: TraceLog, perform: (_ step: Int, _ words: [String]) -> Void, isQuiet: () -> Bool,
        final: () -> [String]
    ) -> ProgramTrace {
        let steps = steps(program)
        for (index, words) in steps.enumerated() {
            log.beginStep(index)
            perform(index, words)
            if !Quiescence.wait(log: log, isQuiet: isQuiet) { log.record("hang") }
        }
        return ProgramTrace(steps: log.stepLines(count: steps.count), final: final())
    }
}
