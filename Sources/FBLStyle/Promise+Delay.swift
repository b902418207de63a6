import Dispatch
import Foundation

extension Promise {
    /// Delays a fulfillment by `interval` seconds; passes a rejection on at once.
    ///
    /// When `self` is fulfilled, a block on `queue` fulfills the returned promise with the same value `interval`
    /// seconds later. When `self` is rejected, the returned promise is rejected with the same error without delay.
    /// - Parameters:
    ///   - queue: The queue the delayed fulfillment runs on.
    ///   - interval: The time to wait, in seconds.
    /// - Returns: A new pending promise fulfilled at least `interval` seconds after `self`, or rejected like `self`.
    public func delay(on queue: DispatchQueue = .promises, _ interval: TimeInterval) -> Promise<Value> {
        let promise = Promise(pending: ())
        observe(on: nil) { resolution in
            guard case .success = resolution else {
                promise.resolve(resolution)
                return
            }
            nonisolated(unsafe) let resolution = resolution
            queue.asyncAfter(deadline: .now() + interval) {
                promise.resolve(resolution)
            }
        }
        return promise
    }
}
