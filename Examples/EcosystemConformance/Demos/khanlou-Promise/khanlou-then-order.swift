// demo-khanlou-then-order: khanlou/Promise runs handlers registered with `then(on:_:)`, from one thread, on one serial
// queue, out of the order of the `then` calls (Promises/A+ 2.2.6.1). `then` registers its callback from inside
// `Promise(work:)`, whose work runs later on a global concurrent queue, so the registrations race each other.
// Only odds can be had: 100 trials, and the count.
import Dispatch
import Foundation
import Promise

/// The handlers' log, under a lock.
final class Log: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Int] = []
    func append(_ item: Int) { lock.withLock { items.append(item) } }
    var snapshot: [Int] { lock.withLock { items } }
}

/// One trial: three `then(on: serial)` calls on a pending promise, then `fulfill`; the order the handlers ran in.
func trial() -> [Int] {
    let serial = DispatchQueue(label: "serial")
    let promise = Promise<Int>()
    let log = Log()
    let ran = DispatchGroup()
    for index in 1...3 {
        ran.enter()
        promise.then(
            on: serial,
            { (value: Int) -> Int in
                log.append(index)
                ran.leave()
                return value
            })
    }
    promise.fulfill(0)
    ran.wait()
    return log.snapshot
}

var outOfOrder = 0
var firstSeen: [Int]?
for _ in 1...100 {
    let order = trial()
    if order != [1, 2, 3] {
        outOfOrder += 1
        if firstSeen == nil { firstSeen = order }
    }
}
print("three handlers registered with then(on: serialQueue) in the order 1, 2, 3 on a pending promise, then fulfill")
print("trials whose handlers ran out of order: \(outOfOrder) of 100")
if let firstSeen { print("first out-of-order run: \(firstSeen)") }
print("Promises/A+ 2.2.6.1 expects: [1, 2, 3] in every trial (0 of 100 out of order)")
