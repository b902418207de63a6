import Dispatch
import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Threads of the suite's own that race for real: for each round, every party waits at one barrier, and all are
/// released together to run their part.
///
/// A race clause must make the racing calls meet, whatever else the machine runs. `DispatchQueue.concurrentPerform`
/// does not promise that: when the pool is busy (the rest of a test suite, a sanitizer's cost, other processes) it may
/// run every iteration on one thread, one after the other, and then a resolver that checks "pending" and settles in
/// two steps never meets another one. Here each party is a dedicated thread, started once per clause, and a round has
/// two gates:
///
/// 1. The round starts: the clause thread publishes the round's work and wakes every party (a condition variable).
/// 2. The parties meet: each one counts itself in and spins, yielding the processor, until all have counted
///    themselves in. Only then does any of them call into the promise.
///
/// So when a party makes its call, every other party is awake and runnable, at most one yield away from its own call:
/// a party that yields inside a promise's check-then-act window hands the processor to one that is ready to act, and
/// on two cores two parties act at the same time. The meeting is by construction, not by luck: no round starts its work
/// until every party has arrived.
///
/// Every hand-over goes through a pthread mutex (`NSCondition`, ``Locked``), which the thread sanitizer sees.
final class RacingThreads: @unchecked Sendable {
    /// The number of parties, each a thread of its own.
    let parties: Int

    /// Guards `round`, `work`, `finished` and `stopped`; parties wait on it for a round, the clause thread for its end.
    private let gate = NSCondition()
    private var round = 0
    private var work: (@Sendable (Int) -> Void)?
    private var finished = 0
    private var stopped = false
    /// How many parties have counted themselves in, over all rounds: round `r` starts its work at `parties * r`.
    private let arrived = Locked(0)

    /// Starts `parties` threads, waiting for their first round.
    init(parties: Int) {
        precondition(parties > 1, "a race needs two parties at least")
        self.parties = parties
        for party in 0..<parties {
            let thread = Thread { [self] in serve(party) }
            thread.name = "PromiseConformance.race.\(party)"
            thread.start()
        }
    }

    /// Runs one round: `body(party)` on every party's thread, all released together at the meeting point; returns when
    /// every party has finished its part.
    ///
    /// Fails at `deadline` when a party has not finished by then (a promise that deadlocks its resolver); the parties
    /// still inside are left to the process, as the clause's own thread would be.
    func race(until deadline: DispatchTime, _ body: @escaping @Sendable (_ party: Int) -> Void) -> Bool {
        gate.lock()
        defer { gate.unlock() }
        precondition(!stopped && work == nil, "one round at a time, before stop()")
        work = body
        finished = 0
        round += 1
        gate.broadcast()
        while finished < parties {
            if DispatchTime.now() >= deadline { return false }
            _ = gate.wait(until: Date(timeIntervalSinceNow: 0.1))  // and look at the deadline again
        }
        work = nil
        return true
    }

    /// Ends every party's thread once it is back at the barrier.
    func stop() {
        gate.lock()
        stopped = true
        gate.broadcast()
        gate.unlock()
    }

    /// A party's life: wait for a round, meet the others, run its part, report, and again.
    private func serve(_ party: Int) {
        var served = 0
        while true {
            gate.lock()
            while round == served && !stopped { gate.wait() }
            guard !stopped, let body = work else {
                gate.unlock()
                return
            }
            served = round
            gate.unlock()

            meet(inRound: served)
            body(party)

            gate.lock()
            finished += 1
            gate.broadcast()
            gate.unlock()
        }
    }

    /// The meeting point: counts the party in, then yields until every party of the round has counted itself in.
    private func meet(inRound round: Int) {
        let everyone = parties * round
        arrived.withLock { $0 += 1 }
        while arrived.withLock({ $0 }) < everyone { sched_yield() }
    }
}

extension RacingThreads {
    /// Runs `body` with `parties` racing threads, and stops them after it.
    static func with<R>(parties: Int, _ body: (RacingThreads) throws -> R) rethrows -> R {
        let threads = RacingThreads(parties: parties)
        defer { threads.stop() }
        return try body(threads)
    }
}
