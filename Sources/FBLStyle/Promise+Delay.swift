import Dispatch
import Foundation
import PromisePlumbing

extension Promise {
    /// Delays a fulfillment by `interval` seconds; passes a rejection on without delay.
    ///
    /// As in the original, `self` is observed on `queue`. When `self` is fulfilled, that block schedules another on
    /// `queue`, which fulfills the returned promise with the same value `interval` seconds later. When `self` is
    /// rejected, that block rejects the returned promise with the same error.
    /// - Parameters:
    ///   - queue: The queue that observes `self` and that the delayed fulfillment runs on.
    ///   - interval: The time to wait, in seconds.
    /// - Returns: A new pending promise fulfilled at least `interval` seconds after `self`, or rejected like `self`.
    public func delay(on queue: DispatchQueue = .promises, _ interval: TimeInterval) -> Promise<Value> {
        let promise = Promise(pending: ())
        observe(on: queue) { resolution in
            guard case .success = resolution else {
                promise.resolve(resolution)
                return
            }
            let delayed = UncheckedSendable(promise)  // resolved under its lock, whatever `Value`
            nonisolated(unsafe) let resolution = resolution
            queue.asyncAfter(deadline: .now() + interval) {
                delayed.value.resolve(resolution)
            }
        }
        return promise
    }
}
