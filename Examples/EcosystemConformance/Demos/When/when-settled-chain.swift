// demo-when-settled-chain: a chain of `then`s built from another thread on a promise that is already resolved loses
// a link when a second `then` is added to a link (here every 12th, as a progress check would). If that link settles
// after the second `then` and before the chain's next one, `notify` captures the second `then`'s observer and queues
// a block that calls it and then sets `self.observer = nil` (`Promise.swift:162-167`); the chain's next `then` stores
// its observer and queues its own notification (`addObserver`, `:213-230`) before that block runs, so the block
// clears the chain's observer and the notification that follows finds none. The chain never reaches its end. A race:
// how often it happens depends on where the link's settlement falls, so the program counts over 20 chains.
import Foundation
import When

typealias WhenPromise<T> = Promise<T>

/// Builds `links` links of `then(on: queue)` on a resolved promise, from this thread, with one more `then` on every
/// `extraEvery`-th link when it is not 0; true when the end of the chain was reached within 5 s.
func trial(links: Int, extraEvery: Int) -> Bool {
    let queue = DispatchQueue(label: "demo.when.chain")
    let ended = DispatchSemaphore(value: 0)
    var last = WhenPromise<Int>(queue: queue, state: .resolved(value: 0))
    for index in 1...links {
        last = last.then(on: queue) { $0 + 1 }
        if extraEvery > 0, index % extraEvery == 0, index < links { last.then(on: queue) { _ in } }
    }
    last.then(on: queue) { _ in ended.signal() }
    return ended.wait(timeout: .now() + 5) == .success
}

let trials = 20
print("When a0811be: \(trials) chains of 1,000 `then(on:)` links, each built on a resolved promise")
for extraEvery in [0, 12] {
    let reached = (0..<trials).filter { _ in trial(links: 1_000, extraEvery: extraEvery) }.count
    let what = extraEvery == 0 ? "no other then" : "one more then on every \(extraEvery)th link"
    print("1,000-link chains on a resolved promise, \(what): the end was reached in \(reached) of \(trials)")
}
print("expected (Promises/A+ 2.2.2, 2.2.6): every chain reaches its end, whatever else is registered on its links")
