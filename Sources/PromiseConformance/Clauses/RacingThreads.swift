import Dispatch
import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Threads of the suite's own that race for real: for each round, every party waits at one barrier, and then the
/// parties make their calls at the same moment on different cores.
///
/// A race clause must make the racing calls meet, whatever else the machine runs. `DispatchQueue.concurrentPerform`
/// does not promise that: when the pool is busy (the rest of a test suite, a sanitizer's cost, other processes) it may
/// run every iteration on one thread, one after the other, and then a resolver that checks "pending" and settles in
/// two steps never meets another one. Here each party is a dedicated thread, started once per clause, and a round has
/// three gates:
///
/// 1. The round begins: the clause thread publishes the round's work and wakes every party (a condition variable).
/// 2. The parties meet: each one counts itself in and waits until all have counted themselves in (a condition
///    variable: the last one wakes the others, and a thread woken from a wait gets its core back sooner than one
///    that yielded it).
/// 3. The round starts (``rendezvous(inRound:slot:)``): each party waits on its core without yielding until a party
///    is waiting so on every core the parties have, and all make their calls at one start chosen then, at once or
///    (every other round) after a small offset of its own (``startOffset(party:round:)``).
///
/// So parties on different cores make their calls within a few tens of nanoseconds of each other: even the narrowest
/// check-then-act window, an unlock and a lock between two critical sections, is met in a few rounds, on a busy
/// machine too (Benchmarks/NOTES.md, "Race calibration", has the odds). The parties of a round that share a core call
/// after the first one, at once. The meeting is by construction, not by luck: no round starts its work until every
/// party has arrived.
///
/// Where the machine allows it, the parties are spread over the cores: party `i` is pinned to the `i mod n`-th of the
/// `n` CPUs the process may run on (``pinToCore(_:)``). The scheduler cannot then stack the parties of a round on one
/// core while another runs something else, and parties next to each other in number, which the race clauses make call
/// opposite resolvers, run on different cores at the same time.
///
/// Every hand-over goes through a pthread mutex (`NSCondition`, `NSLock`, ``Locked``), which the thread sanitizer
/// sees.
final class RacingThreads: @unchecked Sendable {
    /// The number of parties, each a thread of its own.
    let parties: Int

    /// Guards `round`, `work`, `finished` and `stopped`; parties wait on it for a round, the clause thread for its end.
    private let gate = NSCondition()
    private var round = 0
    private var work: (@Sendable (Int) -> Void)?
    private var finished = 0
    private var stopped = false
    /// How many rounds were asked for after ``stop()``.
    private var lateRounds = 0
    /// How many of the parties can wait on a core of their own at once: the parties, or the cores when there are
    /// fewer. Party `i` is in slot `i mod slots`, which on Linux is also its core (``pinToCore(_:)``).
    let slots: Int

    /// Guards `met`; parties wait on it at the meeting point.
    private let meeting = NSCondition()
    /// How many parties have counted themselves in at the meeting point, over all rounds (round `r` is met at
    /// `parties * r`).
    private var met = 0

    /// Guards `startingRound`, `lastLooked` and `start`, which the parties read and write while they wait on their
    /// cores for the round's start (``rendezvous(inRound:slot:)``); they only ever try it, never wait for it.
    private let starting = NSLock()
    /// The round `lastLooked` and `start` are about.
    private var startingRound = 0
    /// For each slot, when a party of it last looked whether the round starts, in `DispatchTime` nanoseconds (0: not
    /// yet in this round).
    private var lastLooked: [UInt64]
    /// When the round starts, once a party of every slot was waiting, in `DispatchTime` nanoseconds.
    private var start: UInt64?

    /// Starts `parties` threads, waiting for their first round.
    init(parties: Int) {
        precondition(parties > 1, "a race needs two parties at least")
        self.parties = parties
        slots = min(parties, Self.cores())
        lastLooked = Array(repeating: 0, count: slots)
        for party in 0..<parties {
            let thread = Thread { [self] in
                Self.pinToCore(party)
                serve(party)
            }
            thread.name = "PromiseConformance.race.\(party)"
            thread.start()
        }
    }

    /// Runs one round: `body(party)` on every party's thread, all released together at the meeting point; returns when
    /// every party has finished its part.
    ///
    /// Rounds run one at a time: a round asked for from another thread while one runs (a thenable's `then`, called by
    /// the library on a thread of its own while the round before is ending) starts once that one has ended.
    ///
    /// Fails at `deadline` when a party has not finished by then (a promise that deadlocks its resolver); the parties
    /// still inside are left to the process, as the clause's own thread would be. Fails at once after ``stop()``: a
    /// round asked for then (a thenable's `then` that the implementation calls after its case ended) has no party to
    /// run it, and is counted in ``roundsAfterStop`` for the clause to report.
    func race(until deadline: DispatchTime, _ body: @escaping @Sendable (_ party: Int) -> Void) -> Bool {
        gate.lock()
        defer { gate.unlock() }
        guard !stopped else {
            lateRounds += 1
            return false
        }
        while work != nil {
            if DispatchTime.now() >= deadline { return false }
            _ = gate.wait(until: Date(timeIntervalSinceNow: 0.1))
        }
        work = body
        finished = 0
        round += 1
        gate.broadcast()
        while finished < parties {
            if DispatchTime.now() >= deadline { return false }
            _ = gate.wait(until: Date(timeIntervalSinceNow: 0.1))  // and look at the deadline again
        }
        work = nil
        gate.broadcast()  // for a round waiting for this one to end
        return true
    }

    /// How many rounds were asked for after ``stop()`` (none ran).
    var roundsAfterStop: Int {
        gate.lock()
        defer { gate.unlock() }
        return lateRounds
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

            meet(inRound: served, party: party)
            body(party)

            gate.lock()
            finished += 1
            gate.broadcast()
            gate.unlock()
        }
    }

    /// The meeting point: counts the party in and waits until every party of the round has counted itself in; then
    /// waits on its core, without yielding, for the round's start (``rendezvous(inRound:slot:)``) and for the party's
    /// offset from it (``startOffset(party:round:)``).
    private func meet(inRound round: Int, party: Int) {
        let everyone = parties * round
        meeting.lock()
        met += 1
        if met == everyone { meeting.broadcast() }
        while met < everyone { meeting.wait() }
        meeting.unlock()
        let at = rendezvous(inRound: round, slot: party % slots) + Self.startOffset(party: party, round: round)
        while Self.now() < at {}  // nothing shared: on its core, ready to go
    }

    /// Waits on the party's core, looking again and again without yielding, until a party of every slot is waiting
    /// too (each has looked within ``freshness``: a party the scheduler took off its core stops looking), then returns
    /// the round's start, which the party that completed the set chose, ``startDelay`` later. A party that comes after
    /// the start was chosen gets it at once, even if it is past. After ``rendezvousLimit`` without the set complete
    /// (the machine gave a core to other work all that time) the round starts at once.
    private func rendezvous(inRound round: Int, slot: Int) -> UInt64 {
        let came = Self.now()
        while true {
            let now = Self.now()
            guard starting.try() else { continue }  // another party is looking: look again
            if startingRound != round {
                startingRound = round
                start = nil
                lastLooked = Array(repeating: 0, count: slots)
            }
            if start == nil {
                lastLooked[slot] = now
                if lastLooked.allSatisfy({ $0 != 0 && $0 &+ Self.freshness >= now }) {
                    start = now + Self.startDelay
                } else if now - came >= Self.rendezvousLimit {
                    start = now
                }
            }
            let chosen = start
            starting.unlock()
            if let chosen { return chosen }
        }
    }

    /// `DispatchTime.now()` in nanoseconds.
    private static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// How long after a party of every slot was found waiting the round starts: 10 µs, in nanoseconds, time enough for
    /// each waiting party to look again and see the start.
    static let startDelay: UInt64 = 10_000

    /// How recently a party must have looked to count as waiting on its core: 20 µs, in nanoseconds, many of its looks.
    static let freshness: UInt64 = 20_000

    /// How long a party waits on its core for the parties of the other slots before the round starts without them:
    /// 2 ms, in nanoseconds.
    static let rendezvousLimit: UInt64 = 2_000_000

    /// The longest ``startOffset(party:round:)``, in nanoseconds: about as long as a promise call takes in a debug
    /// build.
    static let maximumStartOffset = 4_000.0

    /// How long after the round's start `party` makes its call, in nanoseconds: none in odd rounds, so that the parties'
    /// calls begin together; in even rounds a pseudo-random offset spread evenly over the orders of magnitude up to
    /// ``maximumStartOffset``, so that a window that opens later in one call than in another is met too. The same for
    /// the same party and round in every run.
    static func startOffset(party: Int, round: Int) -> UInt64 {
        guard round.isMultiple(of: 2) else { return 0 }
        var state = UInt64(truncatingIfNeeded: round) &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(truncatingIfNeeded: party)
        // SplitMix64's output function: a well-mixed 64-bit value from the round and the party.
        state = (state ^ (state >> 30)) &* 0xBF58_476D_1CE4_E5B9
        state = (state ^ (state >> 27)) &* 0x94D0_49BB_1331_11EB
        state ^= state >> 31
        let fraction = Double(state >> 11) / Double(1 << 53)
        return UInt64(pow(maximumStartOffset, fraction))  // from 1 ns to the maximum, evenly in its logarithm
    }
}

extension RacingThreads {
    /// How many CPUs the process may run on: its affinity mask on Linux, else the active processors.
    static func cores() -> Int {
        #if os(Linux)
            if let affinity, let cpus = allowedCPUs(affinity), !cpus.isEmpty { return cpus.count }
        #endif
        return max(1, ProcessInfo.processInfo.activeProcessorCount)
    }

    #if os(Linux)
        /// `pthread_setaffinity_np`'s type, and `pthread_getaffinity_np`'s.
        private typealias Affinity = @convention(c) (pthread_t, Int, UnsafeMutablePointer<cpu_set_t>) -> Int32

        /// The C library's `pthread_getaffinity_np` and `pthread_setaffinity_np`, or nil where it has none. Glibc
        /// declares them only for `_GNU_SOURCE`, which Swift's Glibc module leaves out, so they are looked up by name.
        private static let affinity: (get: Affinity, set: Affinity)? = {
            let defaultHandle: UnsafeMutableRawPointer? = nil  // RTLD_DEFAULT
            guard let get = dlsym(defaultHandle, "pthread_getaffinity_np"),
                let set = dlsym(defaultHandle, "pthread_setaffinity_np")
            else { return nil }
            return (unsafeBitCast(get, to: Affinity.self), unsafeBitCast(set, to: Affinity.self))
        }()

        /// The CPUs the calling thread may run on, in order; nil when its mask cannot be read.
        private static func allowedCPUs(_ affinity: (get: Affinity, set: Affinity)) -> [Int]? {
            var allowed = cpu_set_t()
            guard affinity.get(pthread_self(), MemoryLayout<cpu_set_t>.size, &allowed) == 0 else { return nil }
            return withUnsafeBytes(of: &allowed) { mask in
                (0..<mask.count * 8).filter { mask[$0 / 8] & (1 << ($0 % 8)) != 0 }
            }
        }
    #endif

    /// Pins the calling thread, the racing thread of `party`, to the `party mod n`-th of the `n` CPUs the process may
    /// run on (its affinity mask, which `taskset` or a container may narrow), so that parties next to each other in
    /// number run on different cores.
    ///
    /// On Linux this is `pthread_setaffinity_np`. Where it fails (a mask the kernel refuses, a C library without it)
    /// the thread runs where the scheduler puts it, as it would without pinning. Apple platforms have no way to pin a
    /// thread: Apple's Thread Affinity API release notes say that binding a thread to a processor is not supported and
    /// that the kernel places every thread (its affinity tags only group threads that should share a cache, and Apple
    /// silicon does not support them). There the parties run where the scheduler puts them, and the meeting point
    /// alone makes them overlap.
    static func pinToCore(_ party: Int) {
        #if os(Linux)
            guard let affinity, let cpus = allowedCPUs(affinity), !cpus.isEmpty else { return }
            let cpu = cpus[party % cpus.count]
            var pinned = cpu_set_t()
            withUnsafeMutableBytes(of: &pinned) { $0[cpu / 8] |= 1 << (cpu % 8) }
            _ = affinity.set(pthread_self(), MemoryLayout<cpu_set_t>.size, &pinned)  // on failure, it runs anywhere
        #endif
    }

    /// Runs `body` with `parties` racing threads, and stops them after it.
    static func with<R>(parties: Int, _ body: (RacingThreads) throws -> R) rethrows -> R {
        let threads = RacingThreads(parties: parties)
        defer { threads.stop() }
        return try body(threads)
    }
}
