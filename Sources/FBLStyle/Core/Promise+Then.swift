import Dispatch

// Promise+Then.swift: `then`, and its handler `handle`, the observer that runs the user's block with the value and
// settles the promise `then` returned. It is registered with `observe` (Promise.swift), whose state machine alone
// decides whether it waits or runs now. The three bodies differ in one line and are written out on purpose: one
// shared body taking that line as a closure would allocate that closure's context on top of `handle`'s.

extension Promise {
    #if CheckedHandlers
        /// The block type of `then`: receives the value `self` was fulfilled with. Under CheckedHandlers, `@Sendable (Value) throws -> Result`.
        public typealias Then<Result> = @Sendable (Value) throws -> Result
    #else
        /// The block type of `then`: receives the value `self` was fulfilled with.
        public typealias Then<Result> = (Value) throws -> Result
    #endif

    /// Chains a block that returns a promise.
    ///
    /// When `self` is fulfilled, `work` runs asynchronously on `queue` with its value, and the returned promise takes
    /// the resolution of the promise `work` returns (or is rejected with the error `work` throws). When `self` is
    /// rejected, `work` does not run and the returned promise is rejected with the same error.
    /// - Parameters:
    ///   - queue: The queue to run `work` on.
    ///   - work: A block handling the value `self` was fulfilled with.
    /// - Returns: A new pending promise resolved like the promise `work` returns.
    #if CheckedHandlers
        @_disfavoredOverload  // `on: .main` picks the main-actor form (Promise+MainActor.swift)
    #endif
    @inlinable @discardableResult
    public func then<Result>(
        on queue: DispatchQueue = .promises,
        _ work: @escaping Then<Promise<Result>>
    ) -> Promise<Result> {
        let promise = Promise<Result>(pending: ())
        func handle(_ resolution: Resolution) {
            switch resolution {
            case .success(let stored):
                let value = Self.valueForBlocks(stored)
                do {
                    promise.resolve(with: try work(value), on: queue)
                } catch {
                    promise.reject(error)
                }
            case .failure(let error):
                promise.reject(error)
            }
        }
        observe(on: queue, handle)
        return promise
    }

    /// Chains a block that returns a value.
    ///
    /// When `self` is fulfilled, `work` runs asynchronously on `queue` with its value, and the returned promise is
    /// fulfilled with what `work` returns (or rejected with the error it throws). When `self` is rejected, `work` does
    /// not run and the returned promise is rejected with the same error.
    /// - Parameters:
    ///   - queue: The queue to run `work` on.
    ///   - work: A block handling the value `self` was fulfilled with.
    /// - Returns: A new pending promise fulfilled with the value `work` returns.
    #if CheckedHandlers
        @_disfavoredOverload  // `on: .main` picks the main-actor form (Promise+MainActor.swift)
    #endif
    @inlinable @discardableResult
    public func then<Result>(
        on queue: DispatchQueue = .promises,
        _ work: @escaping Then<Result>
    ) -> Promise<Result> {
        let promise = Promise<Result>(pending: ())
        func handle(_ resolution: Resolution) {
            switch resolution {
            case .success(let stored):
                let value = Self.valueForBlocks(stored)
                do {
                    promise.fulfill(try work(value))
                } catch {
                    promise.reject(error)
                }
            case .failure(let error):
                promise.reject(error)
            }
        }
        observe(on: queue, handle)
        return promise
    }

    /// Chains a block that returns nothing.
    ///
    /// When `self` is fulfilled, `work` runs asynchronously on `queue` with its value, and the returned promise is
    /// fulfilled with the same value (or rejected with the error `work` throws). When `self` is rejected, `work` does
    /// not run and the returned promise is rejected with the same error.
    /// - Parameters:
    ///   - queue: The queue to run `work` on.
    ///   - work: A block handling the value `self` was fulfilled with.
    /// - Returns: A new pending promise resolved with the same value as `self`.
    #if CheckedHandlers
        @_disfavoredOverload  // `on: .main` picks the main-actor form (Promise+MainActor.swift)
    #endif
    @inlinable @discardableResult
    public func then(
        on queue: DispatchQueue = .promises,
        _ work: @escaping Then<Void>
    ) -> Promise {
        let promise = Promise(pending: ())
        func handle(_ resolution: Resolution) {
            switch resolution {
            case .success(let stored):
                let value = Self.valueForBlocks(stored)
                do {
                    try work(value)
                    promise.resolve(.success(value))  // `value` fulfilled `self`, so it is no error
                } catch {
                    promise.reject(error)
                }
            case .failure(let error):
                promise.reject(error)
            }
        }
        observe(on: queue, handle)
        return promise
    }
}
