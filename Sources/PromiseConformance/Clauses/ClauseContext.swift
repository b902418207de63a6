import Dispatch
import Foundation

/// Why a clause failed; its message becomes ``ClauseStatus/failed(_:)``.
struct ClauseFailure: Error {
    let message: String
    /// Whether a wait for something that must happen ran out of time (``RunStalls``).
    var stalled = false
}

/// What a top-level case throws when it showed a departure the adapter declares, and nothing else: the case ends as
/// ``CaseResult/Outcome/deviated(_:)``.
struct DeclaredDeparture: Error {
    let message: String
}

/// Everything a clause body needs: the adapter, the deadline, and the helpers that observe promises.
///
/// Clause bodies run synchronously on a thread of their own (see ``Conformance``) and wait with semaphores bounded
/// by ``deadline``, so nothing here depends on the Swift concurrency pool or on the main queue.
///
/// Each top-level case (``inCase(_:_:)`` outside any other case) has a deadline of its own, ``caseTimeout`` after it
/// starts, and ends on its own: a failure inside it is recorded as its ``CaseResult`` and the clause goes on with its
/// next case. ``progress`` is what the watchdog sees of it.
final class ClauseContext: @unchecked Sendable {
    let adapter: ErasedAdapter
    /// The id of the clause the context runs.
    let clauseID: String
    /// The stalls of the run the clause is part of.
    let stalls: RunStalls
    /// How a failing generated program's report says to run it again.
    let replay: ProgramReplay
    let stress: Bool
    /// How long the clause waits to see that something does not happen, in seconds (``Conformance/defaultGrace``).
    /// Seconds rather than a `Duration`: the clauses stay at the package's platform floor, below `Duration`'s.
    let grace: TimeInterval
    /// How long A+ 2.3.1 waits for a cycle to be detected, in seconds (``Conformance/cycleDetectionLimit``).
    let cycleDetectionLimit: TimeInterval
    /// How long "eventually" is, in the cases that settle a promise after a delay.
    let later: DispatchTimeInterval = .milliseconds(30)
    /// The time limit of each top-level case: its deadline is this long after it starts.
    let caseTimeout: DispatchTimeInterval
    /// The case the clause thread is in, its deadline, and how the cases so far ended: written by this thread, read by
    /// the watchdog.
    let progress: CaseProgress
    /// The top-level cases not to run: those an earlier run of the clause already ran (a crash or a hang ended it).
    private let skipping: Set<String>
    /// The case being run, with its enclosing cases (`serial queue, already-fulfilled`); nil between cases.
    private var caseName: String?
    private let queues = Locked<[DispatchQueue]>([])
    /// The thread the clause body runs on (the context is made there): the only one whose waits the watchdog sees.
    private let thread = Thread.current
    /// The entry point the body's `then` calls go through when they fit, while ``routing(through:_:_:)`` runs it.
    private var route: (entry: ErasedEntryPoint, calls: RoutedCalls)?

    /// The deadline of the case running now (or, between cases, ``caseTimeout`` after the last one ended).
    var deadline: DispatchTime { progress.deadline }

    /// How many times the clause waited the grace period.
    var graceWaits: Int { progress.snapshot.graceWaits }

    /// Whether a thenable of the clause went through ``Assimilation/resolve(_:_:)``.
    var usedAssimilationHelper: Bool {
        get { progress.snapshot.usedAssimilationHelper }
        set { progress.update { $0.usedAssimilationHelper = newValue } }
    }

    init(
        adapter: ErasedAdapter, replay: ProgramReplay, caseTimeout: DispatchTimeInterval, progress: CaseProgress,
        stress: Bool, grace: TimeInterval, cycleDetectionLimit: TimeInterval, skipping: Set<String> = [],
        clauseID: String = "", stalls: RunStalls = RunStalls()
    ) {
        self.adapter = adapter
        self.clauseID = clauseID
        self.stalls = stalls
        self.replay = replay
        self.caseTimeout = caseTimeout
        self.progress = progress
        self.stress = stress
        self.grace = grace
        self.cycleDetectionLimit = cycleDetectionLimit
        self.skipping = skipping
    }

    /// A failure with `message`, named after the running case; `stalled` when a wait for something that must happen
    /// ran out of time (``RunStalls``).
    func failure(_ message: String, stalled: Bool = false) -> ClauseFailure {
        ClauseFailure(message: caseName.map { "\($0): \(message)" } ?? message, stalled: stalled)
    }

    func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws {
        if !condition { throw failure(message()) }
    }

    /// Runs one named case; a failure inside is reported with the case's name.
    ///
    /// A top-level case (one not inside another) is run on its own: it gets a fresh deadline, ``caseTimeout`` from
    /// now; a failure inside it ends it, is recorded as its ``CaseResult`` in ``progress``, and does not stop the
    /// clause, which goes on with its next case. A top-level case in ``skipping``, or any once the watchdog has
    /// abandoned this thread, is not run. A nested case only adds its name to the failures inside it.
    func inCase(_ name: String, _ body: () throws -> Void) throws {
        if let outer = caseName {
            caseName = "\(outer), \(name)"
            defer { caseName = outer }
            return try body()
        }
        let name = route.map { RoutedCaseName.of(name, via: $0.entry.name) } ?? name
        guard !skipping.contains(name), progress.start(name, deadline: .now() + caseTimeout) else { return }
        caseName = name
        let outcome: CaseResult.Outcome
        do {
            try body()
            outcome = .passed
        } catch let failure as ClauseFailure {
            outcome = .failed(Self.withoutCaseName(failure.message, name))
            if failure.stalled, !declaresDeparture(inCase: name) { stalls.record("\(clauseID), \(failure.message)") }
        } catch let departure as DeclaredDeparture {
            outcome = .deviated(departure.message)
        } catch {
            outcome = .failed("unexpected error \(error)")
        }
        caseName = nil
        progress.end(CaseResult(name: name, outcome: outcome), nextDeadline: .now() + caseTimeout)
    }

    /// Whether the adapter declares a departure from this clause, or from its case `name` (directly, or through an
    /// entry point), or declares the clause flaky: a wait that runs out there is what it declared, not a stall.
    private func declaresDeparture(inCase name: String) -> Bool {
        guard adapter.flakyDepartures[clauseID] == nil, adapter.deviations[clauseID] == nil else { return true }
        let declared = Deviation.cases(of: clauseID, in: adapter.deviations)
        return declared[name] != nil || Deviation.routedReason(name, in: declared) != nil
    }

    /// `message` without the `name: ` (or `name, `, before a nested case's name) that ``failure(_:)`` put first.
    private static func withoutCaseName(_ message: String, _ name: String) -> String {
        for prefix in [name + ": ", name + ", "] where message.hasPrefix(prefix) {
            return String(message.dropFirst(prefix.count))
        }
        return message
    }

    /// The running case's work moved on (another stretch of a long chain built, say): its deadline moves to
    /// ``caseTimeout`` from now, which the watchdog sees, so that a slow machine gets more time while the work moves.
    func madeProgress() {
        progress.extendDeadline(to: .now() + caseTimeout)
    }

    /// Runs `body`, one of the suite's own waits, bounded by the case's deadline: on the clause's thread, the watchdog
    /// does not give up on the thread meanwhile (``CaseProgress/waiting(_:)``), since the wait ends by itself.
    func waiting<Result>(_ body: () throws -> Result) rethrows -> Result {
        Thread.current === thread ? try progress.waiting(body) : try body()
    }

    /// Waits for `recorder`'s first event for as long as the work it waits for keeps going: `reached()` says how far
    /// it got (the steps of a chain, say), and each time that has grown the running case's deadline moves to
    /// ``caseTimeout`` from now, which the watchdog sees. So the limit scales with the work measured: a slow machine
    /// or a busy one gets more time while the work moves, and a hang still fails after ``caseTimeout`` without a step.
    /// `longest` bounds the whole wait, as a number of ``caseTimeout``s. All of it is one of the suite's own waits
    /// (``waiting(_:)``).
    func waitWhileProgressing<Event>(
        _ recorder: Recorder<Event>, _ what: String, of total: Int, longest: Int = 10, reached: () -> Int
    ) throws {
        try waiting {
            let start = DispatchTime.now()
            var cap = start
            for _ in 0..<longest { cap = cap + caseTimeout }
            var last = reached()
            while true {
                do {
                    return try recorder.wait(for: 1, what, in: self, until: min(cap, .now() + .milliseconds(250)))
                } catch let failure as ClauseFailure {
                    let now = DispatchTime.now()
                    let steps = reached()
                    if steps > last, now < cap {
                        last = steps
                        madeProgress()
                        continue
                    }
                    if now < min(deadline, cap) { continue }
                    if steps == 0 { throw ClauseFailure(message: failure.message, stalled: true) }  // named already
                    let seconds = String(format: "%.1f", Double(now.uptimeNanoseconds - start.uptimeNanoseconds) / 1e9)
                    let why = now >= cap ? "still going after \(longest) case time limits" : "no step since the last"
                    throw self.failure(
                        "timed out waiting for \(what): \(why), \(steps) of \(total) steps in \(seconds) s",
                        stalled: true)
                }
            }
        }
    }

    /// Waits long enough for a misbehaviour (an early or a repeated call, a settlement that must not happen) to show.
    ///
    /// First every queue the clause made, and Dispatch's global queue (where most libraries run handlers that have
    /// no queue), runs one block sent now: whatever a misbehaving library had queued there before it has then at
    /// least started, however busy the machine is. Then the clause sleeps ``grace``, for work that was on its way.
    func waitGrace() {
        progress.update { $0.graceWaits += 1 }
        let flushed = DispatchGroup()
        for queue in queues.withLock({ $0 }) + [.global()] {
            queue.async(group: flushed, flags: .barrier) {}
        }
        waiting {
            _ = flushed.wait(timeout: deadline)
            Thread.sleep(forTimeInterval: grace)
        }
    }

    // MARK: Promises

    func pending() -> ErasedAdapter.Pending { adapter.pending() }

    func settled(_ settlement: Settlement) -> ErasedPromise {
        switch settlement {
        case .fulfil(let value): adapter.fulfilled(value)
        case .reject(let error): adapter.rejected(error)
        }
    }

    func settle(_ pending: ErasedAdapter.Pending, _ settlement: Settlement) {
        switch settlement {
        case .fulfil(let value): pending.fulfill(value)
        case .reject(let error): pending.reject(error)
        }
    }

    /// The adapter's `then`, or, while ``routing(through:_:_:)`` runs and the handlers given fit, the entry point's.
    func then(
        _ promise: ErasedPromise, on queue: DispatchQueue? = nil,
        onFulfilled: ErasedAdapter.FulfilledHandler? = nil, onRejected: ErasedAdapter.RejectedHandler? = nil
    ) -> ErasedPromise {
        if let (entry, calls) = route, queue == nil || entry.takesQueue {
            var given: HandlerKinds = []
            if onFulfilled != nil { given.insert(.onFulfilled) }
            if onRejected != nil { given.insert(.onRejected) }
            if given.isSubset(of: calls.handlers),
                entry.fits(given, calls.results, same: calls.same, queue: entry.takesQueue)
            {
                return entry.then(promise, entry.takesQueue ? queue ?? .global() : nil, onFulfilled, onRejected)
            }
        }
        return adapter.then(promise, queue, onFulfilled, onRejected)
    }

    /// Runs `body` with every `then` call whose handlers `calls` describes going through `entry` where it fits, and
    /// each top-level case named "via NAME: case" (``Clause/routed(_:)``).
    func routing(through entry: ErasedEntryPoint, _ calls: RoutedCalls, _ body: () throws -> Void) rethrows {
        route = (entry, calls)
        defer { route = nil }
        try body()
    }

    /// Registers handlers that record what they see and pass it on unchanged.
    @discardableResult
    func observe(_ promise: ErasedPromise, on queue: DispatchQueue? = nil) -> Recorder<Outcome> {
        let recorder = Recorder<Outcome>()
        _ = then(
            promise, on: queue,
            onFulfilled: { value in
                recorder.record(.fulfilled(value))
                return .fulfill(value)
            },
            onRejected: { error in
                recorder.record(.rejected(error))
                return .reject(error)
            })
        return recorder
    }

    /// Waits for the first outcome `recorder` sees and checks it.
    func expect(_ recorder: Recorder<Outcome>, _ expected: Outcome, _ what: String = "the promise") throws {
        try recorder.wait(for: 1, "\(what) to be \(expected)", in: self)
        let seen = recorder.snapshot[0]
        try expect(seen.same(as: expected), "expected \(what) to be \(expected), but it was \(seen)")
    }

    /// Fails when `seen` is a rejection whose reason is nested in more than ``ErrorBoxes/limit`` boxes: casting it
    /// would recurse once per box (``ErrorBoxes``). The deep-chain clauses call it on a chain's end before they compare
    /// it; the other clauses' chains are a few links long, and a reason nested a few boxes deep is still the reason.
    func expectCastable(_ seen: Outcome, _ what: String) throws {
        if case .rejected(let error) = seen, let excess = ErrorBoxes.excess(error, in: what) { throw failure(excess) }
    }

    /// Checks that `promise` ends fulfilled with `value` (its first outcome).
    func expectFulfilled(_ promise: ErasedPromise, with value: Sentinel, _ what: String = "the promise") throws {
        try expect(observe(promise), .fulfilled(value), what)
    }

    /// Checks that `promise` ends rejected with `error` (its first outcome).
    func expectRejected(_ promise: ErasedPromise, with error: SentinelError, _ what: String = "the promise") throws {
        try expect(observe(promise), .rejected(error), what)
    }

    /// Checks that `promise` ends rejected, with any reason.
    func expectRejected(_ promise: ErasedPromise, _ what: String = "the promise") throws {
        let recorder = observe(promise)
        try recorder.wait(for: 1, "\(what) to be rejected", in: self)
        let seen = recorder.snapshot[0]
        try expect(seen.isRejected, "expected \(what) to be rejected, but it was \(seen)")
    }

    /// Waits for the first outcome, lets misbehaviour show, and checks every outcome seen is `expected`.
    func expectOnly(_ recorder: Recorder<Outcome>, _ expected: Outcome, _ what: String = "the promise") throws {
        try expect(recorder, expected, what)
        waitGrace()
        for seen in recorder.snapshot where !seen.same(as: expected) {
            throw failure("\(what) was \(expected), then \(seen)")
        }
    }

    /// Checks that `promise` is still pending after the grace period.
    func expectPending(_ promise: ErasedPromise, _ what: String = "the promise") throws {
        let recorder = observe(promise)
        waitGrace()
        let seen = recorder.snapshot
        try expect(seen.isEmpty, "expected \(what) to be pending, but it was \(seen[0])")
    }

    // MARK: The JavaScript suite's ways of settling

    /// The names of ``eachWay(_:prefix:_:)``'s cases for a promise settled as `verb` (`fulfilled` or `rejected`),
    /// each after `prefix`, in the order it runs them: what a clause that calls it lists in its ``Clause/cases``.
    static func eachWayCases(_ verb: String, prefix: String = "") -> [String] {
        ["already-\(verb)", "immediately-\(verb)", "eventually-\(verb)", "\(verb)-from-another-thread"].map {
            prefix + $0
        }
    }

    /// Runs `body` once per way of settling a promise: already settled, settled immediately after `body` registered
    /// its handlers, settled later, and settled from another thread, each as a case named by
    /// ``eachWayCases(_:prefix:)``. `body` registers handlers on the promise and returns the checks to run after the
    /// promise was settled.
    func eachWay(
        _ settlement: Settlement, prefix: String = "", _ body: (ErasedPromise) throws -> () throws -> Void
    ) throws {
        try eachWay(settlement, prefix: prefix, copies: 1) { promises in try body(promises[0]) }
    }

    /// ``eachWay(_:prefix:_:)`` over `copies` promises in the same state at once, settled together (in order, by one
    /// thread): for a check that an implementation may fail only some of the time however it is driven, such as a
    /// `then` that registers its handler later, on another thread. Each copy is one more chance for the failure to
    /// show, and the case still waits once.
    func eachWay(
        _ settlement: Settlement, prefix: String = "", copies: Int,
        _ body: ([ErasedPromise]) throws -> () throws -> Void
    ) throws {
        let names = Self.eachWayCases(settlement.verb, prefix: prefix)
        try inCase(names[0]) {
            let check = try body((0..<copies).map { _ in settled(settlement) })
            try check()
        }
        try inCase(names[1]) {
            let pendings = (0..<copies).map { _ in pending() }
            let check = try body(pendings.map(\.promise))
            for pending in pendings { settle(pending, settlement) }
            try check()
        }
        try inCase(names[2]) {
            let pendings = (0..<copies).map { _ in pending() }
            let check = try body(pendings.map(\.promise))
            let settleLater: @Sendable () -> Void = { [self] in
                for pending in pendings { settle(pending, settlement) }
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + later, execute: settleLater)
            try check()
        }
        try inCase(names[3]) {
            let pendings = (0..<copies).map { _ in pending() }
            let check = try body(pendings.map(\.promise))
            let settleElsewhere: @Sendable () -> Void = { [self] in
                for pending in pendings { settle(pending, settlement) }
            }
            Thread.detachNewThread(settleElsewhere)
            try check()
        }
    }

    // MARK: Races

    /// How long a race case goes on starting new rounds once it has raced its minimum number, in seconds
    /// (``raceRounds(minimum:share:_:)``): ``defaultRaceBudget``, or ``stressRaceBudget`` with `PROMISES_STRESS=1` or
    /// `promise-conformance --stress`.
    var raceBudget: TimeInterval {
        stress ? Self.stressRaceBudget : Self.defaultRaceBudget
    }

    /// The race budget of a run: enough for the suite's calibrated race (a check and an act in two critical sections,
    /// nothing between them but an unlock and a lock) to be caught in every run on two busy cores, short enough that
    /// a whole run over every clause stays a matter of seconds.
    static let defaultRaceBudget: TimeInterval = 0.25

    /// The race budget of a stress run.
    static let stressRaceBudget: TimeInterval = 2

    /// Races round after round: `round(1)`, `round(2)`, … At least `minimum` rounds, then more until `share` of
    /// ``raceBudget`` has passed since the first one began (or half the time left before the deadline, when that comes
    /// first).
    ///
    /// A round checks what it can see at once and throws at the first thing wrong, so the race stops at the first
    /// failing round and reports that one; what only a grace period can show is checked once the rounds are over.
    func raceRounds(minimum: Int, share: Double = 1, _ round: (_ index: Int) throws -> Void) throws {
        let start = DispatchTime.now().uptimeNanoseconds
        let left = deadline.uptimeNanoseconds > start ? deadline.uptimeNanoseconds - start : 0
        let end = start + min(UInt64(raceBudget * share * 1e9), left / 2)
        var index = 1
        while true {
            try round(index)
            if index >= minimum && DispatchTime.now().uptimeNanoseconds >= end { return }
            index += 1
        }
    }

    /// Runs one round of `threads` (``RacingThreads``): `body(party)` on every party at once; fails with "timed out"
    /// at the deadline.
    func race(_ threads: RacingThreads, _ what: String, _ body: @escaping @Sendable (_ party: Int) -> Void) throws {
        guard threads.race(until: deadline, body) else { throw failure("timed out waiting for \(what)") }
    }

    // MARK: Queues

    /// A queue the suite can recognise from inside a handler.
    func markedQueue(_ label: String, concurrent: Bool = false) -> MarkedQueue {
        let marked = MarkedQueue(label: label, concurrent: concurrent)
        queues.withLock { $0.append(marked.queue) }
        return marked
    }
}
