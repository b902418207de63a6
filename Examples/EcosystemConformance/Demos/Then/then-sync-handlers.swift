// demo-then-sync-handlers: freshOS/Then runs a handler inside the call that registers it (`then` on a settled
// promise) or settles its promise (`fulfill` with a handler waiting), against Promises/A+ 2.2.4, which requires the
// handler to run only once that call has returned.
import Foundation
import Then

func demo() {
    var thenReturned = false
    let fulfilled = Promise(1)
    fulfilled.then { _ in
        print("1. then on a fulfilled promise: the handler runs; has `then` returned? \(thenReturned)")
    }
    thenReturned = true

    var fulfillReturned = false
    let pending = Promise<Int>()
    pending.then { _ in print("2. then, then fulfill: the handler runs; has `fulfill` returned? \(fulfillReturned)") }
    pending.fulfill(1)
    fulfillReturned = true

    print("Promises/A+ 2.2.4 expects: true in both lines (handlers run after the call that registers or settles)")
}

demo()
