// demo-when-late-handlers: `done`, `fail` and `always` added to a settled When promise never run, so `when(_:)` over
// an input that is already fulfilled never completes.
//
// `done`, `fail` and `always` only append to the promise's handler lists (Promise.swift:105-132); the lists are run by
// `notify`, which only runs from `update` when the promise settles or a `then` is added (Promise.swift:136-172). A
// handler added after the promise settled waits for a `notify` that never comes. `when(_:)` follows each input with
// `done` and `fail` (Functions.swift:28-43), so an input already fulfilled is never counted. README, "When": the
// master promise resolves "as soon as all the promises resolve".
import Dispatch
import Foundation
@preconcurrency import When

/// What ran, in order.
final class Log: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String] = []

    func add(_ entry: String) { lock.withLock { entries.append(entry) } }

    var snapshot: [String] { lock.withLock { entries } }
}

/// The demonstration, in a function so that its values are not main-actor globals (it runs on the main thread,
/// which serves the main queue while it waits).
func demo() {
    let queue = DispatchQueue(label: "demo.when.late")
    let log = Log()

    // `done` on a promise resolved (and applied) before the handler is added.
    let resolvedFirst = Promise<Int>(queue: queue)
    resolvedFirst.resolve(1)
    queue.sync {}  // the update that stores the state has run
    resolvedFirst.done { log.add("done(\($0))") }

    // `when` over an input made fulfilled, and over a pending input fulfilled afterwards (the control).
    let settledInput = Promise<Int>(queue: queue, state: .resolved(value: 2))
    when([settledInput]).then(on: queue) { (values: [Int]) -> Void in log.add("when([already fulfilled]) -> \(values)")
    }
    let pendingInput = Promise<Int>(queue: queue)
    when([pendingInput]).then(on: queue) { (values: [Int]) -> Void in
        log.add("when([pending, resolved later]) -> \(values)")
    }
    pendingInput.resolve(3)

    // `when(_:)` resolves its promise on the main queue (Functions.swift:22): serve it for a second.
    RunLoop.main.run(until: Date(timeIntervalSinceNow: 1))
    for _ in 0..<5 { queue.sync {} }

    print("When a0811be")
    print("what ran: \(log.snapshot)")
    print("expected: [\"done(1)\", \"when([already fulfilled]) -> [2]\", \"when([pending, resolved later]) -> [3]\"]")
    print(
        "(a handler added to a settled promise runs, as `then`'s does; when(_:) resolves once all inputs are resolved)")
}

demo()
