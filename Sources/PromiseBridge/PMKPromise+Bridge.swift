import BoltsStyle
import FBLStyle
import PromiseKitStyle

extension PromiseKitStyle.Promise {
    /// A BoltsStyle task that completes as this promise resolves.
    ///
    /// It succeeds with the value, faults with the error (the same instance), and is cancelled if the error is a
    /// cancellation (`isCancelled` is true, `PMKError.cancelled` among others). The task is completed on the thread
    /// that resolves the promise, or before this method returns if the promise is resolved. It does not retain the
    /// promise.
    ///
    /// - Returns: A task of the promise's value.
    public func asBFTask() -> BFTask<T> {
        makeBFTask(from: self)
    }

    /// An FBLStyle promise that resolves as this promise does.
    ///
    /// It fulfills with the value and rejects with the error (the same instance); a cancellation (`isCancelled` is
    /// true) rejects it with Swift's `CancellationError`. It is resolved on the thread that resolves this promise, or
    /// before this method returns if this promise is resolved. It does not retain this promise.
    ///
    /// - Returns: An FBLStyle promise of the value.
    public func asFBLPromise() -> FBLStyle.Promise<T> {
        makeFBLPromise(from: self)
    }
}
