extension BFTask {
    /// Adds a continuation that runs only if this task faults; it receives the error and returns a
    /// result that recovers from it.
    ///
    /// If this task succeeds, the derived task succeeds with the same result; if it is cancelled,
    /// the derived task is cancelled.
    ///
    /// - Parameters:
    ///   - executor: Where the continuation runs; ``BFExecutor/default`` by default.
    ///   - cancellationToken: If cancellation is requested before the continuation runs, it does
    ///     not run and the derived task is cancelled.
    ///   - continuation: Receives the error; returns a result or throws.
    /// - Returns: A task completed with this task's result or the continuation's outcome.
    #if CheckedHandlers
        @_disfavoredOverload  // `.mainThread` picks the main-actor form (BFTask+MainThread.swift)
    #endif
    @inlinable
    @discardableResult
    public func continueOnErrorWith(
        _ executor: BFExecutor = .default,
        cancellationToken: BFCancellationToken? = nil,
        continuation: @escaping BFContinuationBlock<any Error, TResult>
    ) -> BFTask<TResult> {
        enqueueContinuation(executor, cancellationToken, .error(.anyError(continuation), BFSameType()))
    }

    /// Adds a continuation that runs only if this task faults with an error of type `E`.
    ///
    /// Errors of other types pass through to the derived task unchanged, as do results and
    /// cancellation: `continueOnErrorWith { (error: MyError) in ... }` handles only `MyError`.
    ///
    /// - Parameters:
    ///   - executor: Where the continuation runs; ``BFExecutor/default`` by default.
    ///   - cancellationToken: If cancellation is requested before the continuation runs, it does
    ///     not run and the derived task is cancelled.
    ///   - continuation: Receives the typed error; returns a result or throws.
    /// - Returns: A task completed with this task's outcome or the continuation's outcome.
    #if CheckedHandlers
        @_disfavoredOverload  // with the other plain forms, keeping their order (BFTask+MainThread.swift)
    #endif
    @inlinable
    @discardableResult
    public func continueOnErrorWith<E: Error>(
        _ executor: BFExecutor = .default,
        cancellationToken: BFCancellationToken? = nil,
        continuation: @escaping BFContinuationBlock<E, TResult>
    ) -> BFTask<TResult> {
        let typed: (any Error) -> BFTaskState<TResult> = { error in
            guard let matching = error as? E else { return .error(error) }  // another type: passed on unchanged
            return bfOutcome { try continuation(matching) }
        }
        return enqueueContinuation(executor, cancellationToken, .error(.typed(typed), BFSameType()))
    }

    /// Adds a continuation that runs only if this task faults and returns a task to follow.
    ///
    /// - Parameters:
    ///   - executor: Where the continuation runs; ``BFExecutor/default`` by default.
    ///   - cancellationToken: If cancellation is requested before the continuation runs, it does
    ///     not run and the derived task is cancelled; if it is requested while the returned task
    ///     is pending, the derived task is cancelled.
    ///   - continuation: Receives the error; returns the task to follow.
    /// - Returns: A task completed with this task's result or like the task the continuation returns.
    #if CheckedHandlers
        @_disfavoredOverload  // `.mainThread` picks the main-actor form (BFTask+MainThread.swift)
    #endif
    @inlinable
    @discardableResult
    public func continueOnErrorWithTask(
        _ executor: BFExecutor = .default,
        cancellationToken: BFCancellationToken? = nil,
        continuation: @escaping BFContinuationBlock<any Error, BFTask<TResult>>
    ) -> BFTask<TResult> {
        enqueueContinuation(executor, cancellationToken, .errorTask(.anyError(continuation), BFSameType()))
    }

    /// Adds a continuation that runs only if this task faults with an error of type `E` and
    /// returns a task to follow. Errors of other types pass through unchanged.
    ///
    /// - Parameters:
    ///   - executor: Where the continuation runs; ``BFExecutor/default`` by default.
    ///   - cancellationToken: If cancellation is requested before the continuation runs, it does
    ///     not run and the derived task is cancelled; if it is requested while the returned task
    ///     is pending, the derived task is cancelled.
    ///   - continuation: Receives the typed error; returns the task to follow.
    /// - Returns: A task completed with this task's outcome or like the task the continuation returns.
    #if CheckedHandlers
        @_disfavoredOverload  // with the other plain forms, keeping their order (BFTask+MainThread.swift)
    #endif
    @inlinable
    @discardableResult
    public func continueOnErrorWithTask<E: Error>(
        _ executor: BFExecutor = .default,
        cancellationToken: BFCancellationToken? = nil,
        continuation: @escaping BFContinuationBlock<E, BFTask<TResult>>
    ) -> BFTask<TResult> {
        let typed: (any Error) -> BFTaskState<BFTask<TResult>> = { error in
            guard let matching = error as? E else { return .error(error) }  // another type: passed on unchanged
            return bfOutcome { try continuation(matching) }
        }
        return enqueueContinuation(executor, cancellationToken, .errorTask(.typed(typed), BFSameType()))
    }
}
