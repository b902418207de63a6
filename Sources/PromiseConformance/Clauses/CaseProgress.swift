import Dispatch

/// What a clause's thread tells the rest of the run as it goes through the clause's top-level cases.
enum CaseEvent: Sendable {
    /// The thread entered the case.
    case started(String)
    /// The case ended (or, when the watchdog gave up on it, was declared timed out).
    case ended(CaseResult)
    /// The case is still running and made progress: its deadline moved (``CaseProgress/extendDeadline(to:)``).
    case progressed(String)
}

/// Where one run of a clause body stands: the top-level case its thread is in and that case's deadline, how the cases
/// so far ended, and its counters.
///
/// The clause thread writes it (``CaseRunner/inCase(_:_:)``), the watchdog reads it (``Conformance``), and either
/// ends it: the thread by finishing the clause (``finish()``), the watchdog by abandoning a thread stuck past its
/// case's deadline (``abandon()``), whichever comes first. Once abandoned, the thread runs no further case and what it
/// still records is ignored. Each event is passed to `events` in order, under the lock: a child process prints them
/// for its parent.
final class CaseProgress: Sendable {
    struct State: Sendable {
        /// The top-level case being run; nil before the first, between cases and after the last.
        var current: String?
        /// The deadline of the case being run, or of what runs between cases.
        var deadline: DispatchTime
        /// How each top-level case that ended did, in order.
        var results: [CaseResult] = []
        var graceWaits = 0
        var usedAssimilationHelper = false
        /// Whether the thread finished the clause body.
        var finished = false
        /// Whether the watchdog gave up on the thread.
        var abandoned = false
        /// How many of the suite's own waits the thread is in (``CaseProgress/waiting(_:)``): nested ones count each.
        var waits = 0
        /// When the thread last came out of one of the suite's own waits.
        var leftWait: DispatchTime?
    }

    private let state: Locked<State>
    private let events: (@Sendable (CaseEvent) -> Void)?

    init(deadline: DispatchTime, events: (@Sendable (CaseEvent) -> Void)?) {
        state = Locked(State(deadline: deadline))
        self.events = events
    }

    /// A copy of the state.
    var snapshot: State { state.withLock { $0 } }

    /// The deadline of the case being run.
    var deadline: DispatchTime { state.withLock { $0.deadline } }

    /// Changes the counters.
    func update(_ change: (inout State) -> Void) {
        state.withLock { change(&$0) }
    }

    /// The thread enters top-level case `name`, with `deadline`; false (and nothing changes) once it was abandoned.
    func start(_ name: String, deadline: DispatchTime) -> Bool {
        state.withLock { state in
            guard !state.abandoned else { return false }
            state.current = name
            state.deadline = deadline
            events?(.started(name))
            return true
        }
    }

    /// The thread's case ended as `result`; what runs until the next case has `nextDeadline`. Ignored once abandoned
    /// (the watchdog has recorded the case as timed out).
    func end(_ result: CaseResult, nextDeadline: DispatchTime) {
        state.withLock { state in
            guard !state.abandoned else { return }
            state.current = nil
            state.deadline = nextDeadline
            state.results.append(result)
            events?(.ended(result))
        }
    }

    /// The running case made progress: its deadline moves to `deadline`, which the watchdog sees, and a child process
    /// tells its parent that it is alive. Ignored once abandoned, or between cases.
    func extendDeadline(to deadline: DispatchTime) {
        state.withLock { state in
            guard !state.abandoned, let current = state.current else { return }
            state.deadline = deadline
            events?(.progressed(current))
        }
    }

    /// The thread finished the clause body: the state, or nil when the watchdog had abandoned it already.
    func finish() -> State? {
        state.withLock { state in
            guard !state.abandoned else { return nil }
            state.finished = true
            return state
        }
    }

    /// Runs `body`, one of the suite's own waits (for events, for the grace period, for a moving chain), each of which
    /// returns or fails by itself at the case's deadline. While the thread is in one, the watchdog does not give up on
    /// it: a thread that a busy machine wakes late from a wait is not hung in the implementation, and its case reports
    /// what it waited for. Once out, the thread has `margin` to end its case, as from a deadline.
    func waiting<Result>(_ body: () throws -> Result) rethrows -> Result {
        state.withLock { $0.waits += 1 }
        defer {
            state.withLock { state in
                state.waits -= 1
                state.leftWait = .now()
            }
        }
        return try body()
    }

    /// When the watchdog may next give up on the thread: `margin` after its deadline, or after it last came out of
    /// one of the suite's waits, whichever is later; `margin` from now while it is in one.
    func earliestAbandon(after margin: DispatchTimeInterval) -> DispatchTime {
        state.withLock { Self.abandonTime($0, margin) ?? .now() + margin }
    }

    /// When the watchdog may give up on a thread in `state`: `margin` after the later of its deadline and the moment it
    /// last came out of one of the suite's waits; nil while it is in one.
    private static func abandonTime(_ state: State, _ margin: DispatchTimeInterval) -> DispatchTime? {
        state.waits > 0 ? nil : max(state.deadline, state.leftWait ?? state.deadline) + margin
    }

    /// The watchdog gives up on the thread if it is still past its deadline by `margin`, outside the suite's own
    /// waits and `margin` after it last came out of one: the state (whose `current` is the case it is stuck in, if
    /// any), or nil when the thread finished, is waiting, or has moved on to a later deadline. A case it is stuck in
    /// is recorded, and reported, as `timedOut(message)`.
    func abandon(after margin: DispatchTimeInterval, message: String) -> State? {
        state.withLock { state in
            guard !state.finished, !state.abandoned, let time = Self.abandonTime(state, margin),
                DispatchTime.now() >= time
            else { return nil }
            state.abandoned = true
            if let current = state.current {
                let result = CaseResult(name: current, outcome: .timedOut(message))
                state.results.append(result)
                events?(.ended(result))
            }
            return state
        }
    }
}
