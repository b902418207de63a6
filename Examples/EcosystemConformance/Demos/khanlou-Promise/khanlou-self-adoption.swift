// demo-khanlou-self-adoption: a khanlou/Promise `then` whose handler returns the promise that `then` returned stays
// pending forever; Promises/A+ 2.3.1 requires it to be rejected (a TypeError in JavaScript). `then` adopts a returned
// promise by registering its own fulfill and reject on it, here on itself, with no check for a cycle.
import Dispatch
import Foundation
import Promise

/// Holds the derived promise, so that its own handler can return it.
final class Holder: @unchecked Sendable {
    var promise: Promise<Int>?
}

func demo() {
    let holder = Holder()
    let handlerRan = DispatchSemaphore(value: 0)
    let source = Promise<Int>()
    let derived = source.then(
        on: DispatchQueue.global(),
        { (_: Int) -> Promise<Int> in
            defer { handlerRan.signal() }
            return holder.promise!
        })
    holder.promise = derived
    source.fulfill(1)
    handlerRan.wait()
    print("the handler ran and returned the promise that then(on:_:) returned")
    Thread.sleep(forTimeInterval: 2)
    print(
        "2 s later: isPending \(derived.isPending), isFulfilled \(derived.isFulfilled), isRejected \(derived.isRejected)"
    )
    print("Promises/A+ 2.3.1 expects: rejected with an error (isRejected true)")
}

demo()
