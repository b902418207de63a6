// demo-then-whenall-order: freshOS/Then's `Promises.whenAll` fulfils with the values in the order the inputs were
// fulfilled, not in the order of the inputs: each value is appended to one array as its input fulfils.
import Dispatch
import Foundation
import Then

func demo() {
    let inputs = (0..<5).map { _ in Promise<Int>() }
    let all = Promises.whenAll(inputs, callbackQueue: DispatchQueue.global())
    let done = DispatchSemaphore(value: 0)
    all.then { (values: [Int]) -> Void in
        print("whenAll fulfilled with \(values)")
        done.signal()
    }
    print("inputs 0...4 (input i is fulfilled with i), fulfilled in the order 4, 3, 2, 1, 0")
    for (index, input) in inputs.enumerated().reversed() { input.fulfill(index) }
    done.wait()
    print("Expected (swift.combinator.all): [0, 1, 2, 3, 4], the values in input order")
}

demo()
