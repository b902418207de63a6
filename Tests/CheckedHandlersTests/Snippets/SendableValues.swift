// Correct: handlers on any queue that capture only `Sendable` values (a struct, a class whose state is behind a lock,
// a promise of a `Sendable` value). No diagnostic.
import BoltsStyle
import Dispatch
import FBLStyle
import Foundation
import PromiseKitStyle

struct Order: Sendable {
    let id: Int
}

final class Totals: Sendable {
    private let lock = NSLock()
    private nonisolated(unsafe) var sum = 0

    func add(_ value: Int) { lock.withLock { sum += value } }
}

func total(order: Order, _ task: BFTask<Int>, _ promise: PromiseKitStyle.Promise<Int>, _ fbl: FBLStyle.Promise<Int>) {
    let queue = DispatchQueue(label: "work")
    let totals = Totals()
    task.continueOnSuccessWith(.queue(queue)) { value in totals.add(value + order.id) }
    promise.done(on: queue) { value in totals.add(value + order.id) }.cauterize()
    fbl.then(on: queue) { value in totals.add(value + order.id) }
    promise.then(on: queue) { value in PromiseKitStyle.Promise.value(value + order.id) }.cauterize()
}
