// demo-replay-order: replayLazily caches a value before it forwards it to the subscribers it has, so a subscriber
// that starts in between gets the value first, ahead of subscribers that started before it.
import Foundation
@preconcurrency import ReactiveSwift

/// The order in which subscribers saw the value, under a lock.
final class Log: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func add(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}

/// A one-shot value as a ReactiveSwift user shares one: a pipe, its first event, replayed to later subscribers.
func oneShot() -> (SignalProducer<Int, Never>, Signal<Int, Never>.Observer) {
    let (signal, input) = Signal<Int, Never>.pipe()
    let shared = SignalProducer(signal).take(first: 1).replayLazily(upTo: 1)
    shared.start()
    return (shared, input)
}

// Each part is a plain (nonisolated) function: closures written in top-level code would be main-actor closures, and
// Swift 6 traps when one runs on another thread.

/// 1. One thread: A starts C from its own value handler, after B has started.
func reentrant() {
    let (shared, input) = oneShot()
    let log = Log()
    shared.startWithValues { _ in
        log.add("A")
        shared.startWithValues { _ in log.add("C") }
    }
    shared.startWithValues { _ in log.add("B") }
    input.send(value: 1)
    print("1. subscribed A, then B; C subscribed inside A's handler (after B)")
    print("   Promises/A+ 2.2.6.1 expects the handlers in the order of their then calls: [\"A\", \"B\", \"C\"]")
    print("   ReactiveSwift ran them: \(log.all)")
}

/// 2. Two threads, no re-entrance: the main thread subscribes `first`, then `second`; another thread sends the value
///    between the two, while a slow subscriber (started before both) is still handling it.
func twoThreads() {
    let (shared, input) = oneShot()
    let log = Log()
    let slowEntered = DispatchSemaphore(value: 0)
    let slowMayReturn = DispatchSemaphore(value: 0)
    let sent = DispatchSemaphore(value: 0)
    shared.startWithValues { _ in
        log.add("slow")
        slowEntered.signal()
        slowMayReturn.wait()
    }
    shared.startWithValues { _ in log.add("first") }
    Thread.detachNewThread {
        input.send(value: 1)
        sent.signal()
    }
    slowEntered.wait()  // the other thread is inside send, handing the value to `slow`
    shared.startWithValues { _ in log.add("second") }
    slowMayReturn.signal()
    sent.wait()
    print("2. the main thread subscribed slow, first, then second; another thread sent the value in between")
    print("   Promises/A+ 2.2.6.1 expects: [\"slow\", \"first\", \"second\"]")
    print("   ReactiveSwift ran them: \(log.all)")
}

reentrant()
twoThreads()
