// demo-when-then-replaced: a When promise keeps one `then` observer; each `then` replaces the one before.
//
// `then(on:)` and `recover(on:)` store their observer in the promise's single `observer` property (Promise.swift:14,
// 213-230, 272-290), which `notify` calls once the promise settles (Promise.swift:162-167). A second `then` on the
// same promise overwrites the first, whose handler never runs; and adopting a promise returned from a handler is one
// more `addObserver` on it (Promise.swift:196), which overwrites that promise's own `then`. Promises/A+ 2.2.6: "then
// may be called multiple times on the same promise", and every onFulfilled runs, in the order of the `then` calls.
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
    let queue = DispatchQueue(label: "demo.when.replaced")
    let log = Log()
    func drain() { for _ in 0..<5 { queue.sync {} } }

    // Three `then` calls on one pending promise, then it is resolved.
    let promise = Promise<Int>(queue: queue)
    promise.then(on: queue) { (value: Int) -> Void in log.add("A(\(value))") }
    promise.then(on: queue) { (value: Int) -> Void in log.add("B(\(value))") }
    promise.then(on: queue) { (value: Int) -> Void in log.add("C(\(value))") }
    promise.resolve(1)
    drain()
    print("When a0811be: three `then` on one promise (handlers A, B, C), then resolve(1)")
    print("handlers that ran: \(log.snapshot)")
    print("expected (Promises/A+ 2.2.6.1): [\"A(1)\", \"B(1)\", \"C(1)\"]")

    // A promise with a `then` of its own, returned from another promise's handler (adopted).
    let adopted = Promise<Int>(queue: queue)
    adopted.then(on: queue) { (value: Int) -> Void in log.add("X(\(value))") }
    let source = Promise<Int>(queue: queue, state: .resolved(value: 0))
    let derived = source.then(on: queue) { (_: Int) -> Promise<Int> in adopted }
    drain()
    adopted.resolve(2)
    drain()
    print("")
    print("x has a handler X; p.then { _ in x } adopts x; then x.resolve(2)")
    print("handlers that ran: \(log.snapshot.dropFirst()) (derived promise: \(derived.state))")
    print("expected (Promises/A+ 2.2.6.1, 2.3.2): X(2) runs, and the derived promise is fulfilled with 2")
}

demo()
