// Code as written for PromiseKit 8, import included: the package builds PromiseKitStyle as the module `PromiseKit`.
// Stops with a failed precondition if a result is wrong.
import Dispatch
import PromiseKit

// On Linux the main queue drains only while the main thread serves it, and this one waits below.
PromiseKit.conf.Q = (map: DispatchQueue.global(), return: DispatchQueue.global())

var loggedWaitOnMainThread = false
PromiseKit.conf.logHandler = { (event: PromiseKit.LogEvent) in
    if case .waitOnMainThread = event { loggedWaitOnMainThread = true }
}

let answer: PromiseKit.Promise<Int> = firstly {
    when(fulfilled: Promise.value(20), after(.milliseconds(10)).map { 22 })
}.map { first, second in first + second }

// On the main thread, so `wait()` reports `.waitOnMainThread` to the log handler before it blocks.
let total = try answer.wait()
precondition(total == 42, "expected 42, got \(total)")
precondition(loggedWaitOnMainThread, "conf.logHandler did not receive .waitOnMainThread")
print("import PromiseKit: \(total), and PromiseKit.conf.logHandler received .waitOnMainThread")
