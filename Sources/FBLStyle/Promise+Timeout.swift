import Dispatch
import Foundation
import PromisePlumbing

extension Promise {
    /// Waits for `self` at most `interval` seconds.
    ///
    /// The returned promise is resolved like `self` if `self` resolves first; otherwise, `interval` seconds after
    /// this call, a block on `queue` rejects it with ``PromiseError/timedOut``. As in the original, `self` is
    /// observed on `queue` too: the returned promise takes `self`'s resolution in a block there, in turn with the
    /// other blocks on their way to `queue`. The timer holds the returned promise weakly, as in the original, so it
    /// keeps nothing alive.
    /// - Parameters:
    ///   - queue: The queue that observes `self` and that the timer fires on.
    ///   - interval: The time to wait, in seconds.
    /// - Returns: A new pending promise resolved like `self` or rejected with ``PromiseError/timedOut``.
    @discardableResult
    public func timeout(on queue: DispatchQueue = .promises, _ interval: TimeInterval) -> Promise {
        let promise = Promise(pending: ())
        observe(on: queue) { resolution in
            promise.resolve(resolution)
        }
        // The timer does not keep the promise alive; it reaches it under its lock, whatever its value type.
        let timer = UncheckedSendable { [weak promise] in promise?.reject(PromiseError.timedOut) }
        queue.asyncAfter(deadline: .now() + interval) { timer.value() }
        return promise
    }
}
