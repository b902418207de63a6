// demo-when-all-ignores-cancel: `when(_:)` never settles when one of its inputs is cancelled.
//
// `cancel()` rejects a promise with `PromiseError.cancelled` (Promise.swift:96-98). `when(_:)` listens to each input
// with `fail(_:)` (Functions.swift:38-42), whose default policy `.notCancelled` drops that error (Promise.swift:113-123,
// README "Fail": "This callback will not be called when a promise is cancelled"). So a cancelled input neither counts
// as resolved nor rejects the master promise, which stays pending. README, "When": the master promise is rejected "as
// soon as one of the promises is rejected".
import Dispatch
import Foundation
@preconcurrency import When

/// What ran, in order.
final class Log: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String] = []

    func add(_ entry: String) { lock.withLock { entries.append(entry) } }

    var snapshot: [String] { lock.withLock { entries } }
}

/// A plain rejection, for the control.
struct Failure: Error, CustomStringConvertible {
    var description: String { "Failure" }
}

/// The demonstration, in a function so that its values are not main-actor globals (it runs on the main thread,
/// which serves the main queue while it waits).
func demo() {
    let queue = DispatchQueue(label: "demo.when.cancel")
    let log = Log()

    let rejectedInput = Promise<Int>(queue: queue)
    let cancelledInput = Promise<Int>(queue: queue)
    let rejectedAll = when([rejectedInput])
    let cancelledAll = when([cancelledInput])
    _ = rejectedAll.then(on: queue) { (values: [Int]) -> Void in log.add("when([rejected]) fulfilled \(values)") }
        .recover(on: queue) { (error: any Error) -> Void in log.add("when([rejected]) rejected with \(error)") }
    _ = cancelledAll.then(on: queue) { (values: [Int]) -> Void in log.add("when([cancelled]) fulfilled \(values)") }
        .recover(on: queue) { (error: any Error) -> Void in log.add("when([cancelled]) rejected with \(error)") }
    rejectedInput.reject(Failure())
    cancelledInput.cancel()

    // `when(_:)` settles its promise on the main queue (Functions.swift:22): serve it for a second.
    RunLoop.main.run(until: Date(timeIntervalSinceNow: 1))
    for _ in 0..<5 { queue.sync {} }

    print("When a0811be: when([input]) with the input rejected, and with the input cancelled")
    print("what ran: \(log.snapshot)")
    print("cancelled input's state: \(cancelledInput.state); when([cancelled]).state: \(cancelledAll.state)")
    print("expected: when([cancelled]) rejected with cancelled, as when([rejected]) is rejected with Failure")
}

demo()
