import BoltsStyle
import FBLStyle
import PromiseKitStyle

extension BFTask {
    /// A PromiseKitStyle promise that resolves as this task completes.
    ///
    /// It fulfills with the task's result, rejects with the task's error (the same instance), and rejects with
    /// `PMKError.cancelled` if the task was cancelled (or faulted with a cancellation error). The promise is resolved
    /// on the thread that completes the task, or before this method returns if the task has completed. It does not
    /// retain the task.
    ///
    /// - Returns: A promise of the task's result.
    public func asPMKPromise() -> PromiseKitStyle.Promise<TResult> {
        makePMKPromise(from: self)
    }

    /// An FBLStyle promise that resolves as this task completes.
    ///
    /// It fulfills with the task's result, rejects with the task's error (the same instance), and rejects with
    /// Swift's `CancellationError` if the task was cancelled (or faulted with a cancellation error). The promise is
    /// resolved on the thread that completes the task, or before this method returns if the task has completed. It
    /// does not retain the task.
    ///
    /// - Returns: A promise of the task's result.
    public func asFBLPromise() -> FBLStyle.Promise<TResult> {
        makeFBLPromise(from: self)
    }
}
