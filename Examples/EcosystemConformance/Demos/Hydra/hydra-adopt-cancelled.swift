// demo-hydra-adopt-cancelled: a `then` handler that returns a cancelled promise leaves the derived promise pending.
//
// A cancelled source cancels the promise `then` derives from it (the `onCancel` observer, Promise+Then.swift:98).
// But when the handler returns a promise, `then` only forwards that promise's resolve and reject (Promise+Then.swift:
// 87-89), not its cancellation: adopting a cancelled promise never settles. Promises/A+ 2.3.2: "If x is pending,
// promise must remain pending until x is fulfilled or rejected"; once x is settled (cancelled, in Hydra's terms), the
// promise must take its state.
import Dispatch
import Foundation
@preconcurrency import Hydra

/// The state of a Hydra promise, from its public `isPending`, `result` and `error`.
func describe(_ promise: Promise<Int>) -> String {
    if promise.isPending { return "pending" }
    if let value = promise.result { return "fulfilled with \(value)" }
    if let error = promise.error { return "rejected with \(error)" }
    return "cancelled"
}

/// The demonstration, in a function so that its values are not main-actor globals.
func demo() {
    let queue = DispatchQueue(label: "demo.hydra.cancel")
    let context = Context.custom(queue: queue)

    // Control: a `then` on a cancelled promise is cancelled too.
    let cancelledSource = Promise<Int>()
    cancelledSource.cancel()
    let derivedFromCancelled = cancelledSource.then(in: context) { (value: Int) -> Int in value }

    // The bug: a handler that returns a cancelled promise.
    let cancelled = Promise<Int>()
    cancelled.cancel()
    let handlerRan = DispatchSemaphore(value: 0)
    let adopting = Promise<Int>(resolved: 1).then(in: context) { (_: Int) -> Promise<Int> in
        defer { handlerRan.signal() }
        return cancelled
    }
    handlerRan.wait()
    for _ in 0..<5 { queue.sync {} }  // every block Hydra queued after the handler has run

    print("Hydra 2.0.6")
    print("control: cancelled.then { ... } is \(describe(derivedFromCancelled))")
    print("Promise(resolved: 1).then { _ in cancelled }: the handler ran; the derived promise is \(describe(adopting))")
    Thread.sleep(forTimeInterval: 1)
    print("one second later it is still \(describe(adopting))")
    print(
        "expected: the derived promise takes the adopted promise's state (cancelled), as it does from a cancelled source"
    )
}

demo()
