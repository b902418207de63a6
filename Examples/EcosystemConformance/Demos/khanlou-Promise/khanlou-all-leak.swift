// demo-khanlou-all-leak: a pending khanlou/Promise passed to `Promises.all` is never freed once everything lets go of
// it: the callback that `all` registers on each input captures the array of inputs, so each pending input holds
// itself. Without `all` the same promise is freed.
import Dispatch
import Foundation
import Promise

/// A weak reference.
final class Weak: @unchecked Sendable {
    weak var object: AnyObject?
}

/// Makes a pending promise, lets `body` use it, drops it, and says whether it is freed within 2 s.
func check(_ label: String, _ body: (Promise<Int>) -> Void) {
    let weak = Weak()
    do {
        let promise = Promise<Int>()
        weak.object = promise
        body(promise)
    }
    let deadline = Date().addingTimeInterval(2)
    while weak.object != nil, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
    print("\(label): \(weak.object == nil ? "freed" : "still alive 2 s after it was dropped")")
}

check("a pending promise, dropped") { _ in }
check("a pending promise with a then(on:_:_:) handler, dropped") { promise in
    promise.then(on: DispatchQueue.global(), { _ in }, { _ in })
}
check("a pending promise passed to Promises.all, the promise and the all dropped") { promise in
    _ = Promises.all([promise])
}
print("Expected (swift.release, the generated programs' model): each pending promise is freed once nothing holds it")
