import Dispatch
import Foundation

/// The rounds of a race case: how long it races (``budget``), and each round of racing threads, bounded by the
/// case's deadline.
struct Racing: Sendable {
    /// The clock whose deadline bounds the rounds.
    let clock: CaseClock
    /// Whether the run is a stress run (`PROMISES_STRESS=1` or `promise-conformance --stress`), which races longer.
    let stress: Bool

    /// How long a race case goes on starting new rounds once it has raced its minimum number, in seconds
    /// (``rounds(minimum:share:_:)``): ``defaultBudget``, or ``stressBudget`` with `PROMISES_STRESS=1` or
    /// `promise-conformance --stress`.
    var budget: TimeInterval {
        stress ? Self.stressBudget : Self.defaultBudget
    }

    /// The race budget of a run: enough for the suite's calibrated race (a check and an act in two critical sections,
    /// nothing between them but an unlock and a lock) to be caught in every run on two busy cores, short enough that
    /// a whole run over every clause stays a matter of seconds.
    static let defaultBudget: TimeInterval = 0.25

    /// The race budget of a stress run.
    static let stressBudget: TimeInterval = 2

    /// Races round after round: `round(1)`, `round(2)`, … At least `minimum` rounds, then more until `share` of
    /// ``budget`` has passed since the first one began (or half the time left before the deadline, when that comes
    /// first).
    ///
    /// A round checks what it can see at once and throws at the first thing wrong, so the race stops at the first
    /// failing round and reports that one; what only a grace period can show is checked once the rounds are over.
    func rounds(minimum: Int, share: Double = 1, _ round: (_ index: Int) throws -> Void) throws {
        let start = DispatchTime.now().uptimeNanoseconds
        let deadline = clock.deadline
        let left = deadline.uptimeNanoseconds > start ? deadline.uptimeNanoseconds - start : 0
        let end = start + min(UInt64(budget * share * 1e9), left / 2)
        var index = 1
        while true {
            try round(index)
            if index >= minimum && DispatchTime.now().uptimeNanoseconds >= end { return }
            index += 1
        }
    }

    /// Runs one round of `threads` (``RacingThreads``): `body(party)` on every party at once; fails with "timed out"
    /// at the deadline.
    func round(_ threads: RacingThreads, _ what: String, _ body: @escaping @Sendable (_ party: Int) -> Void) throws {
        guard threads.race(until: clock.deadline, body) else {
            throw clock.cases.failure("timed out waiting for \(what)")
        }
    }
}
