// Swift concurrency, which Bolts lacks: await a task, or make one from an `async` closure.
// Neither goes through the main queue: `async()` resumes from the thread that completes the task.
//
// Cancellation goes in through tokens, as everywhere in Bolts: `init(priority:cancellationToken:operation:)`
// takes the token where the work starts. `async()` takes no token source: the source belongs to
// whoever started the work, and a caller who wants a cancelled Swift task to cancel it says so with
// `withTaskCancellationHandler { try await task.async() } onCancel: { source.cancel() }`.

import PromisePlumbing

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
        attach(asyncOperation: start(priority: priority, operation))
    }

    /// Creates a task settled by an unstructured Swift `Task` that runs `operation`, cancelled
    /// through `cancellationToken` in the Bolts manner.
    ///
    /// As ``init(priority:operation:)``, and in addition: if cancellation of the token was requested
    /// before this call, the task is cancelled at once and `operation` never runs (as a continuation
    /// with a cancelled token); if it is requested later, the Swift task running `operation` is
    /// cancelled, so an operation that honours Swift cancellation throws `CancellationError` and the
    /// task ends cancelled (one that ignores it completes the task with its outcome, as a running
    /// Bolts block does). The registration on the token is disposed once the task completes.
    ///
    ///     let source = BFCancellationTokenSource()
    ///     let task = BFTask(cancellationToken: source.token) { try await download(url) }
    ///     source.cancel()  // cancels the download; `task` ends cancelled
    ///
    /// Cancelling a Swift task that awaits ``async()`` cancels the operation too, as for
    /// ``init(priority:operation:)``; it does not cancel the token, which belongs to its source.
    ///
    /// - Parameters:
    ///   - priority: The priority of the Swift task, or `nil` for the default.
    ///   - cancellationToken: The token that cancels the operation, or `nil` for none.
    ///   - operation: The work whose outcome completes the task.
    public convenience init(
        priority: TaskPriority? = nil,
        cancellationToken: BFCancellationToken?,
        operation: @escaping @Sendable () async throws -> TResult
    ) {
        self.init()
        if let cancellationToken, cancellationToken.isCancellationRequested {
            trySetState(.cancelled)
            return
        }
        let operationTask = start(priority: priority, operation)
        attach(asyncOperation: operationTask)
        if let cancellationToken {
            let registration = cancellationToken.register { operationTask.cancel() }
            addCallback { _, _ in registration.dispose() }
        }
    }

    /// Runs `operation` in a new Swift task that completes this task with its outcome.
    private func start(
        priority: TaskPriority?,
        _ operation: @escaping @Sendable () async throws -> TResult
    ) -> Task<Void, Never> {
        // The task crosses into the Swift task whatever its result type; its lock orders the completion.
        let task = UncheckedSendable(self)
        return Task(priority: priority) {
            do {
                let value = try await operation()
                task.value.trySetState(.success(value))
            } catch is CancellationError {
                task.value.trySetState(.cancelled)
            } catch is BFCancelledError {
                task.value.trySetState(.cancelled)
            } catch {
                task.value.trySetState(.error(error))
            }
        }
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

    /// Remembers the Swift `Task` that settles this task, so `async()` can forward cancellation.
    private func attach(asyncOperation operation: Task<Void, Never>) {
        lock.withLock { asyncOperation = operation }
    }

    /// The Swift `Task` that settles this task, if it was created from an `async` closure.
    private var attachedAsyncOperation: Task<Void, Never>? {
        lock.withLock { asyncOperation }
    }
}
