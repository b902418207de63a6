extension BFTask {
    /// Creates a task completed with the value `closure` returns, running it on `executor`.
    ///
    /// If the closure throws, the task faults with that error (cancelled for ``BFCancelledError``).
    ///
    /// - Parameters:
    ///   - executor: Where the closure runs; ``BFExecutor/default`` (right away) by default.
    ///   - closure: Produces the task's result.
    /// - Returns: A task completed with the closure's outcome.
    public static func execute(
        _ executor: BFExecutor = .default,
        closure: @escaping () throws -> TResult
    ) -> BFTask<TResult> {
        let task = BFTask<TResult>()
        executor.execute { task.trySetState(bfOutcome(closure)) }
        return task
    }

    /// Creates a task that completes like the task `closure` returns, running it on `executor`.
    ///
    /// - Parameters:
    ///   - executor: Where the closure runs; ``BFExecutor/default`` (right away) by default.
    ///   - closure: Produces the task to follow.
    /// - Returns: A task that completes like the task the closure returns.
    public static func executeWithTask(
        _ executor: BFExecutor = .default,
        closure: @escaping () throws -> BFTask<TResult>
    ) -> BFTask<TResult> {
        BFTask<Void>(()).continueWithTask(executor) { _ in try closure() }
    }
}
