import Dispatch

extension Promise {
    #if CheckedHandlers
        /// The block type of `recover`: receives the error `self` was rejected with. Under CheckedHandlers, `@Sendable (any Error) throws -> Result`.
        public typealias Recover<Result> = @Sendable (any Error) throws -> Result
    #else
        /// The block type of `recover`: receives the error `self` was rejected with.
        public typealias Recover<Result> = (any Error) throws -> Result
    #endif

    /// Chains a block that replaces a rejection with the promise it returns.
    ///
    /// When `self` is rejected, `recovery` runs asynchronously on `queue` with the error, and the returned promise is
    /// resolved like the promise `recovery` returns (or rejected with the error it throws). When `self` is fulfilled,
    /// `recovery` does not run and the returned promise is fulfilled with the same value.
    /// - Parameters:
    ///   - queue: The queue to run `recovery` on.
    ///   - recovery: A block handling the error `self` was rejected with.
    /// - Returns: A new pending promise to use instead of `self`.
    #if CheckedHandlers
        @_disfavoredOverload  // `on: .main` picks the main-actor form (Promise+MainActor.swift)
    #endif
    @discardableResult
    public func recover(
        on queue: DispatchQueue = .promises,
        _ recovery: @escaping Recover<Promise>
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
    #if CheckedHandlers
        @_disfavoredOverload  // `on: .main` picks the main-actor form (Promise+MainActor.swift)
    #endif
    @discardableResult
    public func recover(
        on queue: DispatchQueue = .promises,
        _ recovery: @escaping Recover<Value>
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
