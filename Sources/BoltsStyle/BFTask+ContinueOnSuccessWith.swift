extension BFTask {
    /// Adds a continuation that runs only if this task succeeds; it receives the result.
    ///
    /// If this task faults or is cancelled, the continuation does not run and the derived task
    /// faults with the same error or is cancelled.
    ///
    /// - Parameters:
    ///   - executor: Where the continuation runs; ``BFExecutor/default`` by default.
    ///   - cancellationToken: If cancellation is requested before the continuation runs, it does
    ///     not run and the derived task is cancelled.
    ///   - continuation: Receives the result and returns the derived task's result.
    /// - Returns: A task completed with the continuation's outcome.
    #if CheckedHandlers
        @_disfavoredOverload  // `.mainThread` picks the main-actor form (BFTask+MainThread.swift)
    #endif
    @inlinable
    @discardableResult
    public func continueOnSuccessWith<S>(
        _ executor: BFExecutor = .default,
        cancellationToken: BFCancellationToken? = nil,
        continuation: @escaping BFContinuationBlock<TResult, S>
    ) -> BFTask<S> {
        enqueueContinuation(executor, cancellationToken, .success(continuation))
    }

    /// Adds a continuation that runs only if this task succeeds and returns a task to follow.
    ///
    /// - Parameters:
    ///   - executor: Where the continuation runs; ``BFExecutor/default`` by default.
    ///   - cancellationToken: If cancellation is requested before the continuation runs, it does
    ///     not run and the derived task is cancelled; if it is requested while the returned task
    ///     is pending, the derived task is cancelled.
    ///   - continuation: Receives the result and returns the task to follow.
    /// - Returns: A task that completes like the task the continuation returns.
    #if CheckedHandlers
        @_disfavoredOverload  // `.mainThread` picks the main-actor form (BFTask+MainThread.swift)
    #endif
    @inlinable
    @discardableResult
    public func continueOnSuccessWithTask<S>(
        _ executor: BFExecutor = .default,
        cancellationToken: BFCancellationToken? = nil,
        continuation: @escaping BFContinuationBlock<TResult, BFTask<S>>
    ) -> BFTask<S> {
        enqueueContinuation(executor, cancellationToken, .successTask(continuation))
    }
}
