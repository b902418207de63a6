// demo-hydra-self-adoption: a `then` handler that returns the promise `then` returned (A+ 2.3.1).
//
// Hydra's `then` with a promise-returning body adds the derived promise's own resolve and reject as observers of the
// promise the body returned (Promise+Then.swift:85-90), with no check that it is the derived promise itself: the
// promise waits for itself and stays pending for ever. Promises/A+ 2.3.1: "If promise and x refer to the same object,
// reject promise with a TypeError as the reason."
import Dispatch
import Foundation
@preconcurrency import Hydra

/// Holds the derived promise so that its own handler can return it.
final class Holder: @unchecked Sendable {
    var derived: Promise<Int>?
}

/// The state of a Hydra promise, from its public `isPending`, `result` and `error`.
func describe(_ promise: Promise<Int>) -> String {
    if promise.isPending { return "pending" }
    if let value = promise.result { return "fulfilled with \(value)" }
    if let error = promise.error { return "rejected with \(error)" }
    return "cancelled"
}

/// The demonstration, in a function so that its values are not main-actor globals.
func demo() {
    let queue = DispatchQueue(label: "demo.hydra.self")
    let context = Context.custom(queue: queue)
    let handlerRan = DispatchSemaphore(value: 0)
    let holder = Holder()

    let source = Promise<Int>()
    let derived = source.then(in: context) { (_: Int) -> Promise<Int> in
        defer { handlerRan.signal() }
        return holder.derived!
    }
    holder.derived = derived
    source.resolve(1)  // only now can the handler run, after `holder.derived` is set
    handlerRan.wait()
    for _ in 0..<5 { queue.sync {} }  // every block Hydra queued after the handler has run

    print("Hydra 2.0.6: `d = source.then(in: context) { _ in d }`, source resolved with 1")
    print("the handler ran and returned d itself")
    print("d after the queue is idle: \(describe(derived))")
    Thread.sleep(forTimeInterval: 1)
    print("d one second later: \(describe(derived))")
    print("expected (Promises/A+ 2.3.1): d rejected with a TypeError-like error")
}

demo()
