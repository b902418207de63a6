import Dispatch

extension Promise {
    #if CheckedHandlers
        /// The block type of `always`: runs whichever way `self` resolves. Under CheckedHandlers, `@Sendable () -> Void`.
        public typealias Always = @Sendable () -> Void
    #else
        /// The block type of `always`: runs whichever way `self` resolves.
        public typealias Always = () -> Void
    #endif

    /// Chains a block that runs whether `self` is fulfilled or rejected.
    ///
    /// `work` runs asynchronously on `queue` once `self` is resolved; the returned promise is then resolved like
    /// `self`.
    /// - Parameters:
    ///   - queue: The queue to run `work` on.
    ///   - work: A block that always runs.
    /// - Returns: A new pending promise resolved like `self`.
    #if CheckedHandlers
        @_disfavoredOverload  // `on: .main` picks the main-actor form (Promise+MainActor.swift)
    #endif
    @discardableResult
    public func always(on queue: DispatchQueue = .promises, _ work: @escaping Always) -> Promise {
        let promise = Promise(pending: ())
        observe(on: queue) { resolution in
            work()
            promise.resolve(resolution)
        }
        return promise
    }
}
