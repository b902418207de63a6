// demo-when-self-adoption: a `then` handler that returns the promise `then` returned (A+ 2.3.1).
//
// When's `then` with a promise-returning body adds an observer to the returned promise that resolves the derived
// promise (Promise.swift:192-203), with no check that the two are the same: the derived promise observes itself and
// stays pending for ever. Promises/A+ 2.3.1: "If promise and x refer to the same object, reject promise with a
// TypeError as the reason."
import Dispatch
import Foundation
@preconcurrency import When

/// Holds the derived promise so that its own handler can return it.
final class Holder: @unchecked Sendable {
    var derived: Promise<Int>?
}

/// The demonstration, in a function so that its values are not main-actor globals.
func demo() {
    let queue = DispatchQueue(label: "demo.when.self")
    let holder = Holder()
    let handlerRan = DispatchSemaphore(value: 0)
    let source = Promise<Int>(queue: queue)
    let derived = source.then(on: queue) { (_: Int) -> Promise<Int> in
        defer { handlerRan.signal() }
        return holder.derived!
    }
    holder.derived = derived
    source.resolve(1)  // only now can the handler run, after `holder.derived` is set
    handlerRan.wait()
    for _ in 0..<5 { queue.sync {} }
    print("When a0811be: `d = source.then(on: queue) { _ in d }`, source resolved with 1")
    print("the handler ran and returned d itself")
    print("d.state after the queue is idle: \(derived.state)")
    Thread.sleep(forTimeInterval: 1)
    print("d.state one second later: \(derived.state)")
    print("expected (Promises/A+ 2.3.1): d rejected with a TypeError-like error")
}

demo()
