// demo-when-renotified: `then` on a settled When promise notifies the current observer again, once per `then`.
//
// `addObserver` sets the promise's single `observer` and then calls `update(state: state)` (Promise.swift:213-230),
// which on the promise's queue runs `notify` again for the current state (Promise.swift:136-145). `notify` hands the
// observer to its queue and only clears it later, from that block (Promise.swift:162-167). Three `then` calls on an
// already-fulfilled promise, made before its queue runs, queue three updates; each finds the third observer still
// set, so the third handler runs three times and the first two never. Promises/A+ 2.2.2.3: onFulfilled "must not be
// called more than once"; 2.2.6.1: every onFulfilled runs, in the order of the `then` calls.
import Dispatch
import Foundation
@preconcurrency import When

/// The handlers that ran, in order.
final class Log: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String] = []

    func add(_ entry: String) { lock.withLock { entries.append(entry) } }

    var snapshot: [String] { lock.withLock { entries } }
}

/// The demonstration, in a function so that its values are not main-actor globals.
func demo() {
    let queue = DispatchQueue(label: "demo.when.renotified")
    let log = Log()
    let promise = Promise<Int>(queue: queue, state: .resolved(value: 1))
    // Registered from a block on the promise's own queue, as code on the main queue does with When's default queue:
    // the queue runs the updates the three calls queue only after the block.
    queue.sync {
        promise.then(on: queue) { (value: Int) -> Void in log.add("A(\(value))") }
        promise.then(on: queue) { (value: Int) -> Void in log.add("B(\(value))") }
        promise.then(on: queue) { (value: Int) -> Void in log.add("C(\(value))") }
    }
    for _ in 0..<5 { queue.sync {} }
    print("When a0811be: three `then` (handlers A, B, C) on a promise made with state .resolved(value: 1)")
    print("handlers that ran: \(log.snapshot)")
    print("expected (Promises/A+ 2.2.2.3, 2.2.6.1): [\"A(1)\", \"B(1)\", \"C(1)\"], each handler once")
}

demo()
