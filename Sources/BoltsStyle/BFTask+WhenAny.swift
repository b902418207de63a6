extension BFTask {
    /// Creates a task that succeeds as soon as any of `tasks` completes, whatever that task's
    /// outcome (a faulted or cancelled first task still completes it). With no input it succeeds
    /// at once.
    ///
    /// - Parameter tasks: The tasks to watch.
    /// - Returns: A task that succeeds when the first of `tasks` completes.
    public static func whenAny(_ tasks: [BFTask<TResult>]) -> BFTask<Void> {
        if tasks.isEmpty { return BFTask<Void>(()) }
        let first = BFTask<Void>()
        for task in tasks {
            if first.completed { break }
            task.addCallback { _, _ in first.trySetStateNotNesting(.success(())) }
        }
        return first
    }

    /// Creates a task that succeeds as soon as any of `tasks` completes; see `whenAny(_:)` with an array.
    ///
    /// - Parameter tasks: The tasks to watch.
    /// - Returns: A task that succeeds when the first of `tasks` completes.
    public static func whenAny(_ tasks: BFTask<TResult>...) -> BFTask<Void> {
        whenAny(tasks)
    }
}
