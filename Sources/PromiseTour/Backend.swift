// The simulated server every scenario talks to, with a plain callback API like URLSession's: each call completes
// later, on the concurrent `network` queue, after a small latency (or at once, if a test's story sets it to 0). Each
// style wraps it in its own idiom (see the `…Store` files); the wrappers are what the guide's samples call.
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

/// The user's Cancel button in the tour: a tap runs the action connected to it, at once or, if nothing is connected
/// yet (the run has not created what it cancels), as soon as something is.
final class CancelButton: @unchecked Sendable {
    private let lock = NSLock()
    private var tapped = false
    private var action: (() -> Void)?

    /// Runs the connected action, or leaves it to `connect`.
    func tap() {
        let toRun = lock.withLock { () -> (() -> Void)? in
            tapped = true
            return action
        }
        toRun?()
    }

    /// Connects `action`, and runs it at once if the button was tapped already.
    func connect(_ action: @escaping () -> Void) {
        let tappedAlready = lock.withLock { () -> Bool in
            self.action = action
            return tapped
        }
        if tappedAlready { action() }
    }
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

    /// Starts the request; `completion` is called once, on a network thread, or here if it was cancelled already or
    /// the latency is 0 (an answer the server has at hand, like a cached one). What the `→` step sets off (scenario 5
    /// taps Cancel there) runs before the response is scheduled, however long the machine keeps this thread waiting.
    fileprivate func start(
        latency: Int, outcome: @escaping @Sendable () throws -> Any,
        completion: @escaping (Result<Any, any Error>) -> Void
    ) {
        let alreadyCancelled = lock.withLock { () -> Bool in
            self.completion = completion
            return cancelled
        }
        if alreadyCancelled {
            finish(.failure(CancellationError()), step: "✕ \(name) not started: cancelled")
            return
        }
        backend.inFlight.enter()
        backend.note("→ \(name)")
        let respond: @Sendable () -> Void = {
            self.backend.whenReleased(self.name) {
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
        if latency == 0 {
            respond()
        } else {
            backend.network.asyncAfter(deadline: .now() + .milliseconds(latency)) { respond() }
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
        backend.requestEnded()
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
    /// What happens in scenarios 7 and 8, and the server's latency.
    let story: Story
    /// The latency of a request, in milliseconds (the story's).
    var latency: Int { story.latency }
    /// Where responses arrive: a concurrent queue, like a URLSession's delegate queue.
    let network = DispatchQueue(label: "network", attributes: .concurrent)
    /// A serial queue for work that should stay off the UI.
    let background = DispatchQueue(label: "background")

    private let start = DispatchTime.now()
    private let lock = NSLock()
    private var records: [String: Record] = ["ada": Record(name: "ada", visits: 0)]
    private var items: Set<String> = ["a", "b", "c", "d"]
    private var failuresLeft: [String: Int] = ["flaky": 2]
    private var polls: [String: Int] = [:]
    private var running = 0
    private var peak = 0
    private var hooks: [String: () -> Void] = [:]
    private var released: Set<String> = []
    private var held: [String: [() -> Void]] = [:]
    /// Entered by every request until its response has arrived (even a dropped one).
    let inFlight = DispatchGroup()

    /// The responses the server holds back until a step starting with the given text has been noted, so that the
    /// guide's story is the same however loaded the machine is: the slow answer of scenario 6 comes after the 50 ms
    /// timeout has won, and the first two uploads of scenario 7 answer only once the third has started (three are
    /// then in flight together, whatever the scheduler does).
    private static let holds = [
        "fetch slow": "recover from", "upload file1": "→ upload file3", "upload file2": "→ upload file3",
    ]

    /// `holds`, and in scenario 5 of the styles whose cancellation aborts the request (BoltsStyle, async/await) the
    /// images until their request has been aborted. The Cancel tap comes as the request starts, but what carries it to
    /// the request comes later on another thread: Bolts registers the token on a request once it has started
    /// (`BoltsStore.fetch`), and the async variant connects the button to its task once the task exists. A thread held
    /// up for longer than the latency would otherwise let the answer win, and the request would never be aborted.
    private let runHolds: [String: String]

    init(timeline: Timeline, scenario: Int, style: String, story: Story = Story()) {
        self.timeline = timeline
        self.scenario = scenario
        self.style = style
        self.story = story
        let aborting = scenario == 5 && [TourStyle.bolts.rawValue, TourStyle.async.rawValue].contains(style)
        runHolds = aborting ? Self.holds.merging(["fetch images": "✕ fetch images aborted"]) { $1 } : Self.holds
    }

    /// Writes `step` to the timeline, with the calling thread and queue, then runs what waited for it: held responses
    /// (`whenReleased`) and a tap on a Cancel button (`cancelButton`).
    func note(_ step: String) {
        timeline.record(scenario: scenario, style: style, step: step, since: start)
        let (hook, responses) = lock.withLock { () -> ((() -> Void)?, [() -> Void]) in
            let hook = hooks.first { step.hasPrefix($0.key) }.flatMap { hooks.removeValue(forKey: $0.key) }
            guard let release = runHolds.values.first(where: step.hasPrefix) else { return (hook, []) }
            released.insert(release)
            let names = runHolds.filter { $0.value == release }.keys
            return (hook, names.flatMap { held.removeValue(forKey: $0) ?? [] })
        }
        for response in responses {
            nonisolated(unsafe) let response = response  // runs once, on the network queue
            network.async { response() }
        }
        hook?()
    }

    /// Runs `response`, the answer of the request `name`, now, or, if the server holds it back (`holds`), once the
    /// step that releases it has been noted.
    fileprivate func whenReleased(_ name: String, _ response: @escaping () -> Void) {
        let now = lock.withLock { () -> Bool in
            guard let release = runHolds[name], !released.contains(release) else { return true }
            held[name, default: []].append(response)
            return false
        }
        if now { response() }
    }

    /// A Cancel button that the user taps right after a step starting with `prefix` is noted, on the thread that
    /// noted it (never, if `prefix` is `nil`): scenario 5 cancels as `→ fetch images` starts (so before the images can
    /// arrive), scenario 7 as an upload starts, scenario 8 as it waits for its next poll. The tap is noted as `user taps
    /// Cancel`.
    func cancelButton(tappedAfter prefix: String?) -> CancelButton {
        let button = CancelButton()
        if let prefix {
            lock.withLock {
                hooks[prefix] = {
                    self.note("user taps Cancel")
                    button.tap()
                }
            }
        }
        return button
    }

    /// Runs `action` once, right after the request called `name` starts and before its response is scheduled, on the
    /// thread that started it: whatever it does happens before the response, however long that thread is kept waiting.
    func whenStarted(_ name: String, _ action: @escaping () -> Void) {
        lock.withLock { hooks["→ \(name)"] = action }
    }

    /// A flag the user sets by tapping Cancel right after a step starting with `prefix` is noted.
    func cancelFlag(tappedAfter prefix: String?) -> CancelFlag {
        let flag = CancelFlag()
        cancelButton(tappedAfter: prefix).connect(flag.cancel)
        return flag
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

    /// The most requests that were in flight at once, each from its start until its completion was called (scenario
    /// 7 allows three).
    var peakRequestsInFlight: Int {
        lock.withLock { peak }
    }

    /// Counts a request whose completion is being called: it is no longer in flight.
    fileprivate func requestEnded() {
        lock.withLock { running -= 1 }
    }

    /// Starts a request named `name` that produces `outcome()` after `latency` milliseconds.
    @discardableResult
    func call<T>(
        _ name: String, latency: Int? = nil, _ outcome: @escaping @Sendable () throws -> T,
        completion: @escaping (Result<T, any Error>) -> Void
    ) -> Request {
        let request = Request(backend: self, name: name)
        let typed: (Result<Any, any Error>) -> Void = { result in completion(result.map { $0 as! T }) }
        lock.withLock {
            running += 1
            peak = max(peak, running)
        }
        request.start(latency: latency ?? story.latency, outcome: { try outcome() }, completion: typed)
        return request
    }

    /// Fetches the data named `name`. `"flaky"` fails twice before it answers; `"slow"` takes 200 ms, and never
    /// answers before the scenario has recovered from its timeout (see `holds`).
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

    /// Stores `file` (scenario 7).
    @discardableResult
    func upload(_ file: String, completion: @escaping (Result<Void, any Error>) -> Void) -> Request {
        call("upload \(file)", {}, completion: completion)
    }

    /// Tells whether `job` is `"running"` or `"done"` (scenario 8): it is done at its `story.pollsUntilDone`th poll.
    @discardableResult
    func status(_ job: String, completion: @escaping (Result<String, any Error>) -> Void) -> Request {
        story.onPoll?()
        let poll = lock.withLock { () -> Int in
            polls[job, default: 0] += 1
            return polls[job]!
        }
        let done = poll >= story.pollsUntilDone
        return call("status \(job)", { done ? "done" : "running" }, completion: completion)
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
