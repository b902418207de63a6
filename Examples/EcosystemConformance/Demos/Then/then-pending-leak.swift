// demo-then-pending-leak: a pending freshOS/Then promise with a `then` handler is never freed once nothing holds it:
// the promise holds the handler's block, which holds the promise `then` returned, and that promise holds the first
// one's `start` function (kept to start the chain lazily), a retain cycle until the promise settles.
import Foundation
import Then

/// A weak reference.
final class Weak {
    weak var object: AnyObject?
}

/// Makes a promise with `make`, lets `body` use it, drops it, and says whether it was freed.
func check(_ label: String, _ make: () -> Promise<Int>, _ body: (Promise<Int>) -> Void) {
    let weak = Weak()
    do {
        let promise = make()
        weak.object = promise
        body(promise)
    }
    print("\(label): \(weak.object == nil ? "freed" : "still alive after it was dropped")")
}

check("a pending promise, dropped", { Promise<Int>() }, { _ in })
check("a fulfilled promise with a then handler, dropped", { Promise(1) }, { $0.then { _ in } })
check("a pending promise with a then handler, dropped", { Promise<Int>() }, { $0.then { _ in } })
print("Expected (swift.release, \"a pending promise nothing holds\"): freed in every line")
