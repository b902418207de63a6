// demo-deferred-self-cycle: a Deferred task whose own andThen closure returns it never completes (A+ 2.3.1).
// Imports only the library (modules Deferred and Task) and Foundation/Dispatch.
import Deferred
import Foundation

import class Task.Task

/// Holds the task that `andThen` returns, so that its own closure can return it.
final class Holder { var derived: Task<Int>? }

func demo() {
    let source = Task<Int>.Promise()
    let holder = Holder()
    holder.derived = Task(source).andThen(upon: DispatchQueue.global()) { _ in holder.derived! }
    source.succeed(with: 1)
    print("source filled with .success(1); derived = Task(source).andThen { _ in derived }")
    let outcome = holder.derived!.wait(until: .now() + .seconds(2))
    print("derived after 2 s: \(outcome.map { "\($0)" } ?? "still pending (wait(until:) returned nil)")")
    print("Promises/A+ 2.3.1 expects: derived rejected with an error (a TypeError), since it was resolved with itself")
}

demo()
