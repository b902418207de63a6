// demo-deferred-all-leak: `allSucceeded()` over a task that is never completed keeps that task, its promise and the
// promise's handlers alive after everything else has let go of them (the suite's generated.combinators, swift.release
// rule). Deferred.swift:16-21 says handlers are held only until they run or "the last copy to this type escapes
// without the value becoming determined". Imports only the library (modules Deferred and Task) and Foundation.
import Deferred
import Foundation

import class Task.Task

/// An object whose lifetime shows whether the promise's handler was freed.
final class Token {}

/// Makes an unfilled task with one handler, hands it to `combine` and drops everything; says what is still alive.
func check(_ label: String, _ combine: ([Task<Int>]) -> Void) {
    weak var weakTask: Task<Int>?
    weak var weakToken: Token?
    do {
        let promise = Task<Int>.Promise()
        let token = Token()
        weakToken = token
        promise.upon(DispatchQueue.global()) { _ in withExtendedLifetime(token) {} }
        let task = Task(promise)
        weakTask = task
        combine([task])
    }
    Thread.sleep(forTimeInterval: 0.5)
    print(
        "\(label): the task is \(weakTask == nil ? "freed" : "still alive"), "
            + "its promise's handler is \(weakToken == nil ? "freed" : "still alive")")
}

check("no combinator") { _ in }
check("[task].firstFilled()") { _ = $0.firstFilled() }
check("[task].allSucceeded()") { _ = $0.allSucceeded() }
print("expected: every one freed, as nothing holds the task or its promise any more")
