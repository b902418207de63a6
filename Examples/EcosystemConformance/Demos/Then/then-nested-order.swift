// demo-then-nested-order: freshOS/Then runs a handler registered inside another handler of a fulfilled promise before
// the handlers that were registered earlier and are still waiting, against Promises/A+ 2.2.6.1. `fulfill` marks the
// promise fulfilled and then calls the waiting blocks one by one; a `then` on a fulfilled promise calls its block at
// once, ahead of the blocks still waiting.
import Foundation
import Then

func demo() {
    var order: [String] = []
    let promise = Promise<Int>()
    promise.then { _ in
        order.append("1")
        promise.then { _ in order.append("3") }
    }
    promise.then { _ in order.append("2") }
    promise.fulfill(0)
    print("handlers 1 and 2 registered on a pending promise; it is fulfilled; handler 1 registers handler 3 on it")
    print("ran as \(order)")
    print("Promises/A+ 2.2.6.1 expects: [\"1\", \"2\", \"3\"] (handler 3's then came after handler 2's)")
}

demo()
