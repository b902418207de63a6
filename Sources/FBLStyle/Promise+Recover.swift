import Dispatch

extension Promise {
    /// Chains a block that replaces a rejection with the promise it returns.
    ///
    /// When `self` is rejected, `recovery` runs asynchronously on `queue` with the error, and the returned promise is
    /// resolved like the promise `recovery` returns (or rejected with the error it throws). When `self` is fulfilled,
    /// `recovery` does not run and the returned promise is fulfilled with the same value.
    /// - Parameters:
    ///   - queue: The queue to run `recovery` on.
    ///   - recovery: A block handling the error `self` was rejected with.
    /// - Returns: A new pending promise to use instead of `self`.
    @discardableResult
    public func recover(
        on queue: DispatchQueue = .promises,
        _ recovery: @escaping (any Error) throws -> Promise
    ) -> Promise {
        let promise = Promise(pending: ())
        observe(on: queue) { resolution in
            switch resolution {
            case .success:
                promise.resolve(resolution)
            case .failure(let error):
                do {
                    promise.resolve(with: try recovery(error), on: queue)
                } catch {
                    promise.reject(error)
                }
            }
        }
        return promise
    }

    /// Chains a block that replaces a rejection with the value it returns.
    ///
    /// When `self` is rejected, `recovery` runs asynchronously on `queue` with the error, and the returned promise is
    /// fulfilled with the value `recovery` returns (or rejected with the error it throws). When `self` is fulfilled,
    /// `recovery` does not run and the returned promise is fulfilled with the same value.
    /// - Parameters:
    ///   - queue: The queue to run `recovery` on.
    ///   - recovery: A block handling the error `self` was rejected with.
    /// - Returns: A new pending promise to use instead of `self`.
    @discardableResult
    public func recover(
        on queue: DispatchQueue = .promises,
        _ recovery: @escaping (any Error) throws -> Value
    ) -> Promise {
        let promise = Promise(pending: ())
        observe(on: queue) { resolution in
            switch resolution {
            case .success:
                promise.resolve(resolution)
            case .failure(let error):
                do {
                    promise.fulfill(try recovery(error))
                } catch {
                    promise.reject(error)
                }
            }
        }
        return promise
    }
}
