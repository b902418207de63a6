// Code as written for Google Promises 2.x, import included: the package builds FBLStyle as the module `Promises`.
// Stops with a failed precondition if a result is wrong.
import Dispatch
import Promises

// On Linux the main queue drains only while the main thread serves it, and this one waits below.
DispatchQueue.promises = DispatchQueue(label: "promises-import")

let first = Promise<Int> { fulfill, _ in fulfill(20) }
let second = Promises.Promise<Int>(on: .global()) { 22 }
let total = all(first, second).then { first, second in first + second }

precondition(waitForPromises(timeout: 10), "the promises did not settle within 10 seconds")
precondition(total.value == 42, "expected 42, got \(String(describing: total.value))")
print("import Promises: \(total.value ?? 0), from Promises.Promise")
