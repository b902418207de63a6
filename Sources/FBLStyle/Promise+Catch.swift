import Dispatch

extension Promise {
    #if CheckedHandlers
        /// The block type of `catch`: receives the error `self` was rejected with. Under CheckedHandlers, `@Sendable (any Error) -> Void`.
        public typealias Catch = @Sendable (any Error) -> Void
    #else
        /// The block type of `catch`: receives the error `self` was rejected with.
        public typealias Catch = (any Error) -> Void
    #endif

    /// Chains a block that handles a rejection.
    ///
    /// When `self` is rejected, `reject` runs asynchronously on `queue` with the error. Either way the returned
    /// promise is resolved like `self` (a `catch` does not recover; see `recover(on:_:)`).
    /// - Parameters:
    ///   - queue: The queue to run `reject` on.
    ///   - reject: A block handling the error `self` was rejected with.
    /// - Returns: A new pending promise resolved like `self`.
    #if CheckedHandlers
        @_disfavoredOverload  // `on: .main` picks the main-actor form (Promise+MainActor.swift)
    #endif
    @discardableResult
    public func `catch`(on queue: DispatchQueue = .promises, _ reject: @escaping Catch) -> Promise {
        let promise = Promise(pending: ())
        observe(on: queue) { resolution in
            if case .failure(let error) = resolution {
                reject(error)
            }
            promise.resolve(resolution)
        }
        return promise
    }
}
