/// The producer side of a ``BFTask``: completes its ``task`` exactly once.
///
/// Hand out ``task`` to consumers and keep the source to complete it with ``set(result:)``,
/// ``set(error:)`` or ``cancel()``. The `set…` methods stop the program if the task has already
/// completed (as Bolts does); the `trySet…` methods return `false` instead and change nothing.
public final class BFTaskCompletionSource<TResult> {
    /// The task this source completes.
    public let task: BFTask<TResult>

    /// Creates a source with a new pending task.
    @inlinable
    public init() {
        task = BFTask()
    }

    /// Completes the task with `result`.
    ///
    /// - Precondition: The task has not completed yet.
    @inlinable
    public func set(result: TResult) {
        guard task.trySetState(.success(result)) else {
            preconditionFailure("BFTaskCompletionSource.set(result:): task already completed (\(task))")
        }
    }

    /// Completes the task with `error`.
    ///
    /// - Precondition: The task has not completed yet.
    @inlinable
    public func set(error: any Error) {
        guard task.trySetState(.error(error)) else {
            preconditionFailure("BFTaskCompletionSource.set(error:): task already completed (\(task))")
        }
    }

    /// Cancels the task.
    ///
    /// - Precondition: The task has not completed yet.
    @inlinable
    public func cancel() {
        guard task.trySetState(.cancelled) else {
            preconditionFailure("BFTaskCompletionSource.cancel(): task already completed (\(task))")
        }
    }

    /// Completes the task with `result` unless it has already completed.
    ///
    /// - Returns: `true` if this call completed the task, `false` if it had already completed.
    @inlinable
    @discardableResult
    public func trySet(result: TResult) -> Bool {
        task.trySetState(.success(result))
    }

    /// Completes the task with `error` unless it has already completed.
    ///
    /// - Returns: `true` if this call completed the task, `false` if it had already completed.
    @inlinable
    @discardableResult
    public func trySet(error: any Error) -> Bool {
        task.trySetState(.error(error))
    }

    /// Cancels the task unless it has already completed.
    ///
    /// - Returns: `true` if this call cancelled the task, `false` if it had already completed.
    @inlinable
    @discardableResult
    public func tryCancel() -> Bool {
        task.trySetState(.cancelled)
    }
}

#if CheckedHandlers
    extension BFTaskCompletionSource: Sendable where TResult: Sendable {}
#else
    extension BFTaskCompletionSource: Sendable {}
#endif
