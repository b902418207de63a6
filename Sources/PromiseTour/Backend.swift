// The simulated server every scenario talks to, with a plain callback API like URLSession's: each call completes
// later, on the concurrent `network` queue, after a small latency. Each style wraps it in its own idiom (see the
// `…Store` files); the wrappers are what the guide's samples call.
//
// Every call is written to the timeline when it starts (`→`, on the caller's thread) and when it completes (`←`, on a
// network thread), so a reader sees where the next step of a chain runs compared with the completion before it.

import Dispatch
import Foundation

/// A record of the store: what scenario 2 queries, modifies and saves.
struct Record: Sendable, Equatable, CustomStringConvertible {
    var name: String
    var visits: Int

    var description: String { "\(name) (\(visits) visits)" }

    /// The record after one more visit: the "modify" step of scenario 2, plain code without I/O.
    func visited() -> Record { Record(name: name, visits: visits + 1) }
}

/// A flag that one side sets and the other checks: the cancellation of styles that have no tokens.
final class CancelFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false

    /// Whether `cancel()` was called.
    var isCancelled: Bool { lock.withLock { cancelled } }

    /// Sets the flag.
    func cancel() { lock.withLock { cancelled = true } }
}

/// The errors the simulated server produces.
enum StoreError: Error, Equatable {
    /// The server could not be reached (the flaky fetch of scenario 6 fails this way at first).
    case offline(String)
    /// A request took longer than its deadline.
    case timedOut(String)
}

/// One request in flight: it completes once, with its outcome or, if cancelled first, with `CancellationError`.
final class Request: @unchecked Sendable {
    private let lock = NSLock()
    private var completion: ((Result<Any, any Error>) -> Void)?
    private var cancelled = false
    private let backend: Backend
    private let name: String

    init(backend: Backend, name: String) {
        self.backend = backend
        self.name = name
    }

    /// Starts the request; `completion` is called once, on a network thread (or here if it was cancelled already).
    /// `started` runs right after the request has started, before its response is scheduled: whatever it does (scenario
    /// 5 taps Cancel there) happens before the response, however long the machine keeps this thread waiting.
    fileprivate func start(
        latency: Int, outcome: @escaping @Sendable () throws -> Any,
        completion: @escaping (Result<Any, any Error>) -> Void, started: (() -> Void)?
    ) {
        let alreadyCancelled = lock.withLock { () -> Bool in
            self.completion = completion
            return cancelled
        }
        if alreadyCancelled {
            finish(.failure(CancellationError()), step: "✕ \(name) not started: cancelled")
            return
        }
        backend.note("→ \(name)")
        backend.inFlight.enter()
        started?()
        backend.network.asyncAfter(deadline: .now() + .milliseconds(latency)) {
            self.backend.afterRecovery(if: self.name == "fetch slow") {
                defer { self.backend.inFlight.leave() }
                let result = Result { try outcome() }
                let step: String
                switch result {
                case .success(let value): step = "← \(self.name) = \(value)"
                case .failure(let error): step = "← \(self.name) failed: \(error)"
                }
                self.finish(result, step: step)
            }
        }
    }

    /// Aborts the request: it completes now with `CancellationError`, and its late response is dropped.
    func cancel() {
        let wasRunning = lock.withLock { () -> Bool in
            guard !cancelled else { return false }
            cancelled = true
            return completion != nil
        }
        if wasRunning { finish(.failure(CancellationError()), step: "✕ \(name) aborted") }
    }

    private func finish(_ result: Result<Any, any Error>, step: String) {
        let toCall = lock.withLock { () -> ((Result<Any, any Error>) -> Void)? in
            defer { completion = nil }
            return completion
        }
        guard let toCall else {
            backend.note("\(step) (dropped: the request was aborted)")
            return
        }
        backend.note(step)
        toCall(result)
    }
}

/// The simulated server and the context of one scenario run in one style: its queues and its timeline.
final class Backend: @unchecked Sendable {
    /// The timeline this run writes to.
    let timeline: Timeline
    /// The scenario being run.
    let scenario: Int
    /// The style being run.
    let style: String
    /// Where responses arrive: a concurrent queue, like a URLSession's delegate queue.
    let network = DispatchQueue(label: "network", attributes: .concurrent)
    /// A serial queue for work that should stay off the UI.
    let background = DispatchQueue(label: "background")
    /// The latency of one request, in milliseconds.
    let latency: Int

    private let start = DispatchTime.now()
    private let lock = NSLock()
    private var records: [String: Record] = ["ada": Record(name: "ada", visits: 0)]
    private var items: Set<String> = ["a", "b", "c", "d"]
    private var failuresLeft: [String: Int] = ["flaky": 2]
    private var hooks: [String: () -> Void] = [:]
    private var recovered = false
    private var heldUntilRecovery: [() -> Void] = []
    /// Entered by every request until its response has arrived (even a dropped one).
    let inFlight = DispatchGroup()

    init(timeline: Timeline, scenario: Int, style: String, latency: Int = 20) {
        self.timeline = timeline
        self.scenario = scenario
        self.style = style
        self.latency = latency
    }

    /// Writes `step` to the timeline, with the calling thread and queue.
    func note(_ step: String) {
        timeline.record(scenario: scenario, style: style, step: step, since: start)
        if step.hasPrefix("recover from") {
            let released = lock.withLock { () -> [() -> Void] in
                recovered = true
                defer { heldUntilRecovery = [] }
                return heldUntilRecovery
            }
            for response in released {
                nonisolated(unsafe) let response = response  // runs once, on the network queue
                network.async { response() }
            }
        }
    }

    /// Runs `response` now, or, if `hold` is true, once a step `recover from …` has been noted. The slow answer of
    /// scenario 6 is held so: whatever the load on the machine, the 50 ms timeout always wins against it.
    func afterRecovery(if hold: Bool, _ response: @escaping () -> Void) {
        let now = lock.withLock { () -> Bool in
            if !hold || recovered { return true }
            heldUntilRecovery.append(response)
            return false
        }
        if now { response() }
    }

    /// Runs `action` once, right after the request called `name` starts and before its response is scheduled
    /// (scenario 5 cancels from there).
    func whenStarted(_ name: String, _ action: @escaping () -> Void) {
        lock.withLock { hooks[name] = action }
    }

    /// Waits until every request started so far has had its response (a late one included).
    func idle() async {
        await withCheckedContinuation { continuation in
            inFlight.notify(queue: .global()) { continuation.resume() }
        }
    }

    /// The items still stored (scenario 3 deletes them).
    var remainingItems: Set<String> {
        lock.withLock { items }
    }

    /// Starts a request named `name` that produces `outcome()` after `latency` milliseconds.
    @discardableResult
    func call<T>(
        _ name: String, latency: Int? = nil, _ outcome: @escaping @Sendable () throws -> T,
        completion: @escaping (Result<T, any Error>) -> Void
    ) -> Request {
        let request = Request(backend: self, name: name)
        let typed: (Result<Any, any Error>) -> Void = { result in completion(result.map { $0 as! T }) }
        let hook = lock.withLock { hooks.removeValue(forKey: name) }
        request.start(latency: latency ?? self.latency, outcome: { try outcome() }, completion: typed, started: hook)
        return request
    }

    /// Fetches the data named `name`. `"flaky"` fails twice before it answers; `"slow"` takes 200 ms, and never
    /// answers before the scenario has recovered from its timeout (see `afterRecovery`).
    @discardableResult
    func fetch(_ name: String, completion: @escaping (Result<String, any Error>) -> Void) -> Request {
        call(
            "fetch \(name)", latency: name == "slow" ? 200 : nil, { [self] in try answer(name) }, completion: completion
        )
    }

    /// Reads the record `id`.
    @discardableResult
    func query(_ id: String, completion: @escaping (Result<Record, any Error>) -> Void) -> Request {
        call("query \(id)", { [self] in lock.withLock { records[id]! } }, completion: completion)
    }

    /// Stores `record` and returns it as stored.
    @discardableResult
    func save(_ record: Record, completion: @escaping (Result<Record, any Error>) -> Void) -> Request {
        call(
            "save \(record)",
            { [self] in
                lock.withLock { records[record.name] = record }
                return record
            }, completion: completion)
    }

    /// Deletes `item`.
    @discardableResult
    func delete(_ item: String, completion: @escaping (Result<Void, any Error>) -> Void) -> Request {
        call("delete \(item)", { [self] in _ = lock.withLock { items.remove(item) } }, completion: completion)
    }

    private func answer(_ name: String) throws -> String {
        let fail = lock.withLock { () -> Bool in
            guard let left = failuresLeft[name], left > 0 else { return false }
            failuresLeft[name] = left - 1
            return true
        }
        if fail { throw StoreError.offline(name) }
        return "\(name)-data"
    }
}
