// demo-when-settled-twice: a second `resolve`/`reject` of a When promise wins when it comes before the first is applied.
//
// `resolve(_:)` and `reject(_:)` check `state.isPending` on the caller's thread (Promise.swift:74-93), but the new
// state is only stored later, by a block on the promise's queue (`update`, Promise.swift:136-145). Two settlements
// made before that queue runs both pass the check, and both blocks run: the second overwrites the state, and the
// `then` observer, not cleared yet (Promise.swift:162-167), is notified of both. `cancel()` is `reject` with
// `PromiseError.cancelled` (Promise.swift:96-98), so it changes a fulfilled promise the same way. Promises/A+
// 2.1.2: "When fulfilled, a promise must not transition to any other state."
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

/// The second settlement's error.
struct SecondSettlement: Error, CustomStringConvertible {
    var description: String { "SecondSettlement" }
}

/// The demonstration, in a function so that its values are not main-actor globals.
func demo() {
    let queue = DispatchQueue(label: "demo.when.twice")
    let log = Log()
    func drain() { for _ in 0..<5 { queue.sync {} } }

    let promise = Promise<Int>(queue: queue)
    let derived = promise.then(on: queue) { (value: Int) -> Int in
        log.add("then handler(\(value))")
        return value
    }
    // Settled twice from a block on the promise's own queue, as code on the main queue does with When's default
    // queue: the first update can only run after the block.
    queue.sync {
        promise.resolve(1)
        promise.reject(SecondSettlement())
    }
    drain()
    print("When a0811be: resolve(1), then reject(SecondSettlement()), on a pending promise with one `then`")
    print("handlers that ran: \(log.snapshot)")
    print("promise.state: \(promise.state)")
    print("derived promise's state: \(derived.state)")
    print(
        "expected (Promises/A+ 2.1.2): the promise stays fulfilled with 1, and the derived promise is fulfilled with 1")

    let cancelled = Promise<Int>(queue: queue)
    queue.sync {
        cancelled.resolve(2)
        cancelled.cancel()
    }
    drain()
    print("")
    print("resolve(2), then cancel(): promise.state: \(cancelled.state)")
    print("expected: fulfilled with 2 (cancelling a settled promise changes nothing)")
}

demo()
