import Dispatch

extension Promise {
    /// Chains a block that runs whether `self` is fulfilled or rejected.
    ///
    /// `work` runs asynchronously on `queue` once `self` is resolved; the returned promise is then resolved like
    /// `self`.
    /// - Parameters:
    ///   - queue: The queue to run `work` on.
    ///   - work: A block that always runs.
    /// - Returns: A new pending promise resolved like `self`.
    @discardableResult
    public func always(on queue: DispatchQueue = .promises, _ work: @escaping () -> Void) -> Promise {
        let promise = Promise(pending: ())
        observe(on: queue) { resolution in
            work()
            promise.resolve(resolution)
        }
        return promise
    }
}
