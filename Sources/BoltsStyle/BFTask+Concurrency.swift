// Swift concurrency, which Bolts lacks: await a task, or make one from an `async` closure.
// Neither goes through the main queue: `async()` resumes from the thread that completes the task.

extension BFTask {
    /// Creates a task settled by an unstructured Swift `Task` that runs `operation`.
    ///
    /// The task succeeds with the value `operation` returns and faults with the error it throws
    /// (the same instance). If `operation` throws `CancellationError` or ``BFCancelledError``, the
    /// task is cancelled. Awaiting ``async()`` from a Swift task that gets cancelled cancels the
    /// Swift task running `operation`.
    ///
    /// - Parameters:
    ///   - priority: The priority of the Swift task, or `nil` for the default.
    ///   - operation: The work whose outcome completes the task.
    public convenience init(
        priority: TaskPriority? = nil,
        operation: @escaping @Sendable () async throws -> TResult
    ) {
        self.init()
        let operationTask = Task<Void, Never>(priority: priority) { [self] in
            do {
                let value = try await operation()
                self.trySetState(.success(value))
            } catch is CancellationError {
                self.trySetState(.cancelled)
            } catch is BFCancelledError {
                self.trySetState(.cancelled)
            } catch {
                self.trySetState(.error(error))
            }
        }
        attach(asyncOperation: operationTask)
    }

    /// Waits for the task and returns its result.
    ///
    /// Resumes on the thread that completes the task; it never hops through the main queue.
    /// If the awaiting Swift task is cancelled and this task was created by
    /// ``init(priority:operation:)``, the cancellation is forwarded to the operation; otherwise
    /// the wait goes on until the task completes (like `Task.value`).
    ///
    /// - Returns: The task's result.
    /// - Throws: The task's error if it faulted, ``BFCancelledError`` if it was cancelled.
    nonisolated(nonsending) public func async() async throws -> TResult {
        if let operationTask = attachedAsyncOperation {
            return try await withTaskCancellationHandler {
                try await completion()
            } onCancel: {
                operationTask.cancel()
            }
        }
        return try await completion()
    }

    nonisolated(nonsending) private func completion() async throws -> TResult {
        if case .pending = currentState {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                addCallback { _, _ in continuation.resume() }
            }
        }
        switch currentState {
        case .success(let value):
            return value
        case .error(let error):
            throw error
        case .cancelled:
            throw BFCancelledError()
        case .pending:
            preconditionFailure("BoltsStyle: async() resumed before the task completed")
        }
    }
}
