// The public `continueWith` and `continueWithTask`: each adds one `BFContinuation` (Core/BFContinuation.swift), the
// handler that runs the closure on its executor and completes the derived task.

extension BFTask {
    /// Adds a continuation that runs when this task completes, whatever the outcome.
    ///
    /// The derived task completes with the value the continuation returns, faults with the error
    /// it throws, and is cancelled if it throws ``BFCancelledError``.
    ///
    /// - Parameters:
    ///   - executor: Where the continuation runs; ``BFExecutor/default`` by default.
    ///   - cancellationToken: If cancellation is requested before the continuation runs, it does
    ///     not run and the derived task is cancelled.
    ///   - continuation: Receives this (completed) task.
    /// - Returns: A task completed with the continuation's outcome.
    #if CheckedHandlers
        @_disfavoredOverload  // `.mainThread` picks the main-actor form (BFTask+MainThread.swift)
    #endif
    @inlinable
    @discardableResult
    public func continueWith<S>(
        _ executor: BFExecutor = .default,
        cancellationToken: BFCancellationToken? = nil,
        continuation: @escaping BFContinuationBlock<BFTask<TResult>, S>
    ) -> BFTask<S> {
        enqueueContinuation(executor, cancellationToken, .always(continuation))
    }

    /// Adds a continuation that runs when this task completes, whatever the outcome, and returns a
    /// task; the derived task completes like that task (result, error or cancellation).
    ///
    /// - Parameters:
    ///   - executor: Where the continuation runs; ``BFExecutor/default`` by default.
    ///   - cancellationToken: If cancellation is requested before the continuation runs, it does
    ///     not run and the derived task is cancelled; if it is requested while the returned task
    ///     is pending, the derived task is cancelled.
    ///   - continuation: Receives this (completed) task and returns the task to follow.
    /// - Returns: A task that completes like the task the continuation returns.
    #if CheckedHandlers
        @_disfavoredOverload  // `.mainThread` picks the main-actor form (BFTask+MainThread.swift)
    #endif
    @inlinable
    @discardableResult
    public func continueWithTask<S>(
        _ executor: BFExecutor = .default,
        cancellationToken: BFCancellationToken? = nil,
        continuation: @escaping BFContinuationBlock<BFTask<TResult>, BFTask<S>>
    ) -> BFTask<S> {
        enqueueContinuation(executor, cancellationToken, .alwaysTask(continuation))
    }
}
