// Swift concurrency, which the original lacks: await a promise, or make one from an `async` closure.

import PromisePlumbing

extension Promise {
    /// Suspends until the promise is resolved; returns its value or throws its error.
    ///
    /// Runs on the caller's actor (`nonisolated(nonsending)`), so it can be called from any actor even when `Value`
    /// is not `Sendable`. The continuation is registered as an inline observer and resumed by whichever thread
    /// resolves the promise: no queue is involved, in particular not the main queue.
    ///
    /// Cancelling the awaiting task cancels the task of a promise made by ``init(priority:operation:)`` (which then
    /// typically rejects it with `CancellationError`); any other promise is simply awaited further, like `Task.value`.
    public nonisolated(nonsending) func async() async throws -> Value {
        if let resolution = currentResolution { return try resolution.get() }
        guard let task = pendingOperationTask else { return try await resolution() }
        return try await withTaskCancellationHandler {
            try await resolution()
        } onCancel: {
            task.cancel()
        }
    }

    /// Waits for the resolution through an inline observer.
    private nonisolated(nonsending) func resolution() async throws -> Value {
        try await withUnsafeThrowingContinuation { continuation in
            observe(on: nil) { resolution in
                nonisolated(unsafe) let resolution = resolution
                continuation.resume(with: resolution)
            }
        }
    }

    /// The task created by `init(priority:operation:)`, if any and while pending.
    var pendingOperationTask: Task<Void, Never>? {
        lock.withLock { operationTask }
    }

    /// Records the task settling this promise, unless the promise is already resolved.
    func setOperationTask(_ task: Task<Void, Never>) {
        lock.withLock {
            if machine.isPending { operationTask = task }
        }
    }

    /// Creates a pending promise settled by an unstructured `Task` running `operation`.
    ///
    /// The promise is fulfilled with the value `operation` returns, or rejected with the error it throws (the same
    /// instance). Cancellation ends as a rejection with Swift's `CancellationError`: an operation that notices it is
    /// cancelled throws that error, which rejects the promise. Awaiting the promise with ``async()`` forwards the
    /// awaiting task's cancellation to this task.
    /// - Parameters:
    ///   - priority: The priority of the task.
    ///   - operation: The work producing the value.
    public convenience init(
        priority: TaskPriority? = nil,
        operation: @escaping @Sendable () async throws -> Value
    ) {
        self.init(pending: ())
        let promise = UncheckedSendable(self)  // resolved from the Swift task, under its lock
        let task = Task(priority: priority) {
            do {
                promise.value.fulfill(try await operation())
            } catch {
                promise.value.reject(error)
            }
        }
        setOperationTask(task)
    }
}
