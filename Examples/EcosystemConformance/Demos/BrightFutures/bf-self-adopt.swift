// demo-bf-self-adopt: a BrightFutures future whose flatMap closure returns that same future deadlocks once it
// completes: the derived future never completes, and registering any further callback on the future blocks the
// registering thread for good (A+ 2.3.2.2 expects the derived future to take the future's value). It illustrates the
// README's "It is not safe to add a new callback from within a callback of the same future" (README.md:149):
// flatMap's flattening adds one (with the immediate context) on the returned future, from inside that future's own
// callback, and waits for the future's callback semaphore, which that callback holds (Async.swift:105-123).
// Imports only the library and Foundation/Dispatch.
import BrightFutures
import Foundation

enum DemoError: Error { case failed }

/// Runs `body` on a new thread and says whether it returned within `seconds`.
func returns(within seconds: Int, _ body: @escaping @Sendable () -> Void) -> Bool {
    let done = DispatchSemaphore(value: 0)
    Thread {
        body()
        done.signal()
    }.start()
    return done.wait(timeout: .now() + .seconds(seconds)) == .success
}

/// Hands the futures to the helper threads (`Future` guards its state, but is not declared `Sendable`).
struct Shared<Value>: @unchecked Sendable { let value: Value }

func demo() {
    let source = Promise<Int, DemoError>()
    let future = source.future
    let derived = future.flatMap(DispatchQueue.global().context) { _ in future }
    source.success(1)
    print("future pending; derived = future.flatMap { _ in future }; then future completed with .success(1)")
    let outcome = derived.forced(.now() + .seconds(2))
    print("derived after 2 s: \(outcome.map { "\($0)" } ?? "still pending (forced(timeout) returned nil)")")
    let shared = Shared(value: future)
    let ran = DispatchSemaphore(value: 0)
    let registered = returns(within: 2) {
        shared.value.onComplete(DispatchQueue.global().context) { _ in ran.signal() }
    }
    print(
        "future.onComplete { ... } called afterwards from another thread: "
            + (registered ? "returned" : "did not return within 2 s (that thread is blocked)"))
    print("that callback \(ran.wait(timeout: .now() + .seconds(1)) == .success ? "ran" : "did not run")")
    print("Promises/A+ 2.3.2.2 expects: derived fulfilled with 1, and further callbacks of future registered and run")
}

demo()
exit(0)
