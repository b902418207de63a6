import Dispatch
import Foundation

extension Promise {
    /// Waits for `self` at most `interval` seconds.
    ///
    /// The returned promise is resolved like `self` if `self` resolves first; otherwise, `interval` seconds after
    /// this call, a block on `queue` rejects it with ``PromiseError/timedOut``. The timer holds the returned promise
    /// weakly, as in the original, so it keeps nothing alive.
    /// - Parameters:
    ///   - queue: The queue the timer fires on.
    ///   - interval: The time to wait, in seconds.
    /// - Returns: A new pending promise resolved like `self` or rejected with ``PromiseError/timedOut``.
    @discardableResult
    public func timeout(on queue: DispatchQueue = .promises, _ interval: TimeInterval) -> Promise {
        let promise = Promise(pending: ())
        observe(on: nil) { resolution in
            promise.resolve(resolution)
        }
        queue.asyncAfter(deadline: .now() + interval) { [weak promise] in
            promise?.reject(PromiseError.timedOut)
        }
        return promise
    }
}
