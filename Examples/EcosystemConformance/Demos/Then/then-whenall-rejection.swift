// demo-then-whenall-rejection: freshOS/Then's `Promises.whenAll` reports a rejection only once every input has
// settled, and then the last rejection, not the first: each rejection overwrites one `error` variable, and the
// result is sent from a DispatchGroup's notify, which waits for every input.
import Dispatch
import Foundation
import Then

struct InputError: Error, CustomStringConvertible {
    let id: Int
    var description: String { "InputError(\(id))" }
}

func demo() {
    let inputs = (0..<3).map { _ in Promise<Int>() }
    let all = Promises.whenAll(inputs, callbackQueue: DispatchQueue.global())
    let done = DispatchSemaphore(value: 0)
    all.onError { error in
        print("whenAll rejected with \(error)")
        done.signal()
    }
    print("input 1 rejects with InputError(1); inputs 0 and 2 stay pending")
    inputs[1].reject(InputError(id: 1))
    let early = done.wait(timeout: .now() + 2) == .success
    print("whenAll settled within 2 s: \(early)")
    if !early {
        print("input 2 rejects with InputError(2), input 0 fulfils")
        inputs[2].reject(InputError(id: 2))
        inputs[0].fulfill(0)
        done.wait()
    }
    print(
        "Expected (swift.combinator.all): rejected with InputError(1) as soon as input 1 rejects, whatever the others do"
    )
}

demo()
