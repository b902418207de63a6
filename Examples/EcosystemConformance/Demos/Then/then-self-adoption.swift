// demo-then-self-adoption: a freshOS/Then `then` whose handler returns the promise that `then` returned stays pending
// forever; Promises/A+ 2.3.1 requires it to be rejected (a TypeError in JavaScript). `then` adopts a returned promise
// with `then` and `onError` on it, here on itself, with no check for a cycle.
import Foundation
import Then

func demo() {
    let source = Promise<Int>()
    var derived: Promise<Int>?
    derived = source.then { (_: Int) -> Promise<Int> in
        print("the handler runs and returns the promise that then returned")
        return derived!
    }
    source.fulfill(1)
    Thread.sleep(forTimeInterval: 1)
    print("1 s later: value \(String(describing: derived!.value)), error \(String(describing: derived!.error))")
    print("Promises/A+ 2.3.1 expects: an error (the promise rejected), not nil")
}

demo()
