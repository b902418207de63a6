import Dispatch
import Foundation

/// Why a clause failed; its message becomes ``ClauseStatus/failed(_:)``.
struct ClauseFailure: Error {
    let message: String
}

/// What a handler saw.
enum Outcome: Sendable, CustomStringConvertible {
    case fulfilled(Sentinel)
    case rejected(any Error)

    var description: String {
        switch self {
        case .fulfilled(let value): "fulfilled with \(value)"
        case .rejected(let error): "rejected with \(error)"
        }
    }

    func isFulfilled(with value: Sentinel) -> Bool {
        if case .fulfilled(let seen) = self { return seen == value }
        return false
    }

    func isRejected(with error: SentinelError) -> Bool {
        if case .rejected(let seen) = self { return (seen as? SentinelError) == error }
        return false
    }

    var isRejected: Bool {
        if case .rejected = self { return true }
        return false
    }

    /// Same outcome: same sentinel, or same sentinel error (other errors never compare equal).
    func same(as other: Outcome) -> Bool {
        switch (self, other) {
        case (.fulfilled(let a), .fulfilled(let b)): a == b
        case (.rejected(let a), .rejected(let b)):
            (a as? SentinelError).map { $0 == (b as? SentinelError) } ?? false
        default: false
        }
    }
}

/// A thread-safe log of events that the clause thread can wait on, with the clause's deadline.
final class Recorder<Event: Sendable>: Sendable {
    private let events = Locked<[Event]>([])
    private let signal = DispatchSemaphore(value: 0)

    func record(_ event: Event) {
        events.withLock { $0.append(event) }
        signal.signal()
    }

    var snapshot: [Event] { events.withLock { $0 } }
    var count: Int { events.withLock { $0.count } }

    /// Waits until at least `count` events were recorded, or fails with "timed out" at `context`'s deadline (or at
    /// `limit`, when it comes first).
    func wait(
        for count: Int, _ what: @autoclosure () -> String, in context: ClauseContext, until limit: DispatchTime? = nil
    ) throws {
        let deadline = min(context.deadline, limit ?? context.deadline)
        while self.count < count {
            if signal.wait(timeout: deadline) == .timedOut, self.count < count {
                throw context.failure("timed out waiting for \(what())")
            }
        }
    }
}

/// A one-shot flag, claimed by the first caller.
final class Once: Sendable {
    private let claimed = Locked(false)

    func claim() -> Bool {
        claimed.withLock { claimed in
            let first = !claimed
            claimed = true
            return first
        }
    }
}

/// A flag set from any thread, and read later.
final class Flag: Sendable {
    private let value = Locked(false)

    func mark() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
}

/// An object whose lifetime the suite watches through a weak reference.
final class LifetimeToken: Sendable {}

/// A weak reference the clause thread polls.
final class WeakBox: @unchecked Sendable {
    private let lock = Locked<Void>(())
    private weak var object: AnyObject?

    init(_ object: AnyObject?) {
        self.object = object
    }

    var isAlive: Bool { lock.withLock { _ in object != nil } }
}

/// How the suite settles a promise in one of the JavaScript suite's ways (already, immediately, later, elsewhere).
enum Settlement: Sendable {
    case fulfil(Sentinel)
    case reject(SentinelError)

    var verb: String {
        switch self {
        case .fulfil: "fulfilled"
        case .reject: "rejected"
        }
    }

    var outcome: Outcome {
        switch self {
        case .fulfil(let value): .fulfilled(value)
        case .reject(let error): .rejected(error)
        }
    }
}

/// Everything a clause body needs: the adapter, the deadline, and the helpers that observe promises.
///
/// Clause bodies run synchronously on a thread of their own (see ``Conformance``) and wait with semaphores bounded
/// by ``deadline``, so nothing here depends on the Swift concurrency pool or on the main queue.
final class ClauseContext: @unchecked Sendable {
    let adapter: ErasedAdapter
    let deadline: DispatchTime
    let stress: Bool
    /// How long the clause waits to see that something does not happen, in seconds (``Conformance/defaultGrace``).
    /// Seconds rather than a `Duration`: the clauses stay at the package's platform floor, below `Duration`'s.
    let grace: TimeInterval
    /// How long A+ 2.3.1 waits for a cycle to be detected, in seconds (``Conformance/cycleDetectionLimit``).
    let cycleDetectionLimit: TimeInterval
    /// How long "eventually" is, in the cases that settle a promise after a delay.
    let later: DispatchTimeInterval = .milliseconds(30)
    private var caseName: String?
    /// How many times the clause waited the grace period.
    private(set) var graceWaits = 0
    private let queues = Locked<[DispatchQueue]>([])
    /// The clause's cases the adapter declares as deviations (`"2.3.1#from onFulfilled"`).
    private let deviatingCases: Set<String>
    /// The departures seen in those cases: case name → failure message.
    private(set) var observedDeviations: [String: String] = [:]
    /// Whether a thenable of the clause went through ``Assimilation/resolve(_:_:)``.
    var usedAssimilationHelper = false

    init(
        adapter: ErasedAdapter, deadline: DispatchTime, stress: Bool, grace: TimeInterval,
        cycleDetectionLimit: TimeInterval, deviatingCases: Set<String>
    ) {
        self.adapter = adapter
        self.deadline = deadline
        self.stress = stress
        self.grace = grace
        self.cycleDetectionLimit = cycleDetectionLimit
        self.deviatingCases = deviatingCases
    }

    func failure(_ message: String) -> ClauseFailure {
        ClauseFailure(message: caseName.map { "\($0): \(message)" } ?? message)
    }

    func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws {
        if !condition { throw failure(message()) }
    }

    /// Runs one named case; a failure inside is reported with the case's name.
    ///
    /// A failure in a top-level case the adapter declares as a deviation is recorded as observed, and the clause goes
    /// on with its other cases, so that a declared difference in one case does not hide a regression in the others.
    func inCase(_ name: String, _ body: () throws -> Void) throws {
        let outer = caseName
        caseName = outer.map { "\($0), \(name)" } ?? name
        defer { caseName = outer }
        guard outer == nil, deviatingCases.contains(name) else { return try body() }
        do {
            try body()
        } catch let failure as ClauseFailure {
            observedDeviations[name] = failure.message
        }
    }

    /// Waits long enough for a misbehaviour (an early or a repeated call, a settlement that must not happen) to show.
    ///
    /// First every queue the clause made, and Dispatch's global queue (where most libraries run handlers that have
    /// no queue), runs one block sent now: whatever a misbehaving library had queued there before it has then at
    /// least started, however busy the machine is. Then the clause sleeps ``grace``, for work that was on its way.
    func waitGrace() {
        graceWaits += 1
        let flushed = DispatchGroup()
        for queue in queues.withLock({ $0 }) + [.global()] {
            queue.async(group: flushed, flags: .barrier) {}
        }
        _ = flushed.wait(timeout: deadline)
        Thread.sleep(forTimeInterval: grace)
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

    func then(
        _ promise: ErasedPromise, on queue: DispatchQueue? = nil,
        onFulfilled: ErasedAdapter.FulfilledHandler? = nil, onRejected: ErasedAdapter.RejectedHandler? = nil
    ) -> ErasedPromise {
        adapter.then(promise, queue, onFulfilled, onRejected)
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

    /// Checks that `promise` is still pending after the grace period.
    func expectPending(_ promise: ErasedPromise, _ what: String = "the promise") throws {
        let recorder = observe(promise)
        waitGrace()
        let seen = recorder.snapshot
        try expect(seen.isEmpty, "expected \(what) to be pending, but it was \(seen[0])")
    }

    // MARK: The JavaScript suite's ways of settling

    /// Runs `body` once per way of settling a promise: already settled, settled immediately after `body` registered
    /// its handlers, settled later, and settled from another thread. `body` registers handlers on the promise and
    /// returns the checks to run after the promise was settled.
    func eachWay(_ settlement: Settlement, _ body: (ErasedPromise) throws -> () throws -> Void) throws {
        let verb = settlement.verb
        try inCase("already-\(verb)") {
            let check = try body(settled(settlement))
            try check()
        }
        try inCase("immediately-\(verb)") {
            let pending = pending()
            let check = try body(pending.promise)
            settle(pending, settlement)
            try check()
        }
        try inCase("eventually-\(verb)") {
            let pending = pending()
            let check = try body(pending.promise)
            let settleLater: @Sendable () -> Void = { [self] in settle(pending, settlement) }
            DispatchQueue.global().asyncAfter(deadline: .now() + later, execute: settleLater)
            try check()
        }
        try inCase("\(verb)-from-another-thread") {
            let pending = pending()
            let check = try body(pending.promise)
            let settleElsewhere: @Sendable () -> Void = { [self] in settle(pending, settlement) }
            Thread.detachNewThread(settleElsewhere)
            try check()
        }
    }

    // MARK: Races

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

/// A queue carrying a `DispatchSpecificKey` value, so a handler can tell whether it runs on it.
struct MarkedQueue: Sendable {
    private static let key = DispatchSpecificKey<Int>()
    private static let counter = Locked(0)

    let queue: DispatchQueue
    let mark: Int

    init(label: String, concurrent: Bool) {
        mark = Self.counter.withLock { count in
            count += 1
            return count
        }
        queue = DispatchQueue(label: "PromiseConformance.\(label)", attributes: concurrent ? [.concurrent] : [])
        queue.setSpecific(key: Self.key, value: mark)
    }

    /// Whether the caller runs on this queue.
    var isCurrent: Bool { DispatchQueue.getSpecific(key: Self.key) == mark }
}
