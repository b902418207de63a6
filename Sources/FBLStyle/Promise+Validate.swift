import Dispatch

extension Promise {
    #if CheckedHandlers
        /// The block type of `validate`: tests the value `self` was fulfilled with. Under CheckedHandlers, `@Sendable (Value) -> Bool`.
        public typealias Validate = @Sendable (Value) -> Bool
    #else
        /// The block type of `validate`: tests the value `self` was fulfilled with.
        public typealias Validate = (Value) -> Bool
    #endif

    /// Checks the value `self` is fulfilled with.
    ///
    /// When `self` is fulfilled, `predicate` runs asynchronously on `queue` with the value; the returned promise is
    /// fulfilled with the same value if `predicate` returns `true` and rejected with
    /// ``PromiseError/validationFailure`` otherwise. When `self` is rejected, the returned promise is rejected with
    /// the same error.
    /// - Parameters:
    ///   - queue: The queue to run `predicate` on.
    ///   - predicate: The check.
    /// - Returns: A new pending promise resolved like `self` or rejected with ``PromiseError/validationFailure``.
    #if CheckedHandlers
        @_disfavoredOverload  // `on: .main` picks the main-actor form (Promise+MainActor.swift)
    #endif
    @discardableResult
    public func validate(
        on queue: DispatchQueue = .promises,
        _ predicate: @escaping Validate
    ) -> Promise {
        let promise = Promise(pending: ())
        observe(on: queue) { resolution in
            if case .success(let value) = resolution, !predicate(Self.valueForBlocks(value)) {
                promise.reject(PromiseError.validationFailure)
            } else {
                promise.resolve(resolution)
            }
        }
        return promise
    }
}
