// demo-bf-self-cycle: a BrightFutures future whose own flatMap closure returns it never settles (A+ 2.3.1).
// Imports only the library and Foundation/Dispatch.
import BrightFutures
import Foundation

enum DemoError: Error { case failed }

/// Holds the future that `flatMap` returns, so that its own closure can return it.
final class Holder { var derived: Future<Int, DemoError>? }

func demo() {
    let source = Promise<Int, DemoError>()
    let holder = Holder()
    // An explicit context: called from the main thread, the default context would be the main queue, which this
    // program does not serve.
    holder.derived = source.future.flatMap(DispatchQueue.global().context) { _ in holder.derived! }
    source.success(1)
    print("source completed with .success(1); derived = source.future.flatMap { _ in derived }")
    let outcome = holder.derived!.forced(.now() + .seconds(2))
    print("derived after 2 s: \(outcome.map { "\($0)" } ?? "still pending (forced(timeout) returned nil)")")
    print("isCompleted: \(holder.derived!.isCompleted)")
    print("Promises/A+ 2.3.1 expects: derived rejected with an error (a TypeError), since it was resolved with itself")
}

demo()
