// RunLog.swift: what the driver (ProgramRun.swift) recorded of one run of a program, and the facts the model reads
// from it.

/// What one run of a program recorded (``ProgramRun``), which ``ModelComparison`` reads.
struct RunLog: Sendable {
    var step = 0
    var sequence = 0
    var events = 0
    /// Each promise's observer calls: the state it saw, the step, whether it ran inside a call.
    var observed: [Int: [(state: PromisesAPlus.State, step: Int, insideCall: Bool)]] = [:]
    var handlerCalls: [Int: [ProgramRun.HandlerCall]] = [:]
    var registrations: [Int: ProgramRun.Registration] = [:]
    var settleCalls: [Int: [PromisesAPlus.SettleCall]] = [:]
    var completions: [Int: [PromisesAPlus.AllResult]] = [:]
    var made: Set<Int> = []
    var madeAt: [Int: Int] = [:]
    /// The promises still alive once the program let go of everything, that had to be freed.
    var leaked: [Int] = []
    /// Whether a wait for the model's milestones reached the stall limit.
    var stalled = false
    /// Whether the run was stopped at ``ProgramRun/eventLimit`` events: a promise kept settling or calling, and the
    /// log holds the events up to the limit.
    var stopped = false

    /// The facts the model reads, as the implementation made them.
    var facts: PromisesAPlus.Facts {
        var facts = PromisesAPlus.Facts()
        facts.made = made
        facts.madeAt = madeAt
        facts.settleCalls = settleCalls
        for (node, seen) in observed {
            guard let first = seen.first else { continue }
            facts.states[node] = first.state
            facts.settledAt[node] = first.step
        }
        return facts
    }
}
