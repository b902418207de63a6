// demo-khanlou-nested-order: khanlou/Promise runs a handler registered inside another handler of a fulfilled promise
// before the handlers that were registered earlier and are still waiting (Promises/A+ 2.2.6.1). After settling,
// `fireIfCompleted` calls the waiting callbacks one at a time, each only once the previous one has returned, while
// `addCallbacks` on a settled promise calls the new one at once. The registrations here are synchronous (the
// three-argument `then(on:_:_:)`), so the outcome is the same every time: 100 trials, and the count.
import Dispatch
import Foundation
import Promise

/// The handlers' log, under a lock.
final class Log: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    func append(_ item: String) { lock.withLock { items.append(item) } }
    var snapshot: [String] { lock.withLock { items } }
}

/// Handler 1 registers handler 3 on the same promise; handler 2 was registered before the promise was fulfilled.
func trial() -> [String] {
    let serial = DispatchQueue(label: "serial")
    let promise = Promise<Int>()
    let log = Log()
    let ran = DispatchGroup()
    ran.enter()
    ran.enter()
    ran.enter()
    promise.then(
        on: serial,
        { _ in
            log.append("1")
            promise.then(
                on: serial,
                { _ in
                    log.append("3")
                    ran.leave()
                }, { _ in })
            ran.leave()
        }, { _ in })
    promise.then(
        on: serial,
        { _ in
            log.append("2")
            ran.leave()
        }, { _ in })
    promise.fulfill(0)
    ran.wait()
    return log.snapshot
}

var counts: [[String]: Int] = [:]
for _ in 1...100 { counts[trial(), default: 0] += 1 }
print("handlers 1 and 2 registered on a pending promise; it is fulfilled; handler 1 registers handler 3 on it")
for (order, count) in counts.sorted(by: { $0.value > $1.value }) {
    print("ran as \(order): \(count) of 100 trials")
}
print("Promises/A+ 2.2.6.1 expects: [\"1\", \"2\", \"3\"] in every trial (handler 3's then came after handler 2's)")
