import BoltsStyle
import FBLStyle
import PromiseKitStyle

extension FBLStyle.Promise {
    /// A BoltsStyle task that completes as this promise resolves.
    ///
    /// It succeeds with the value, faults with the error (the same instance), and is cancelled if the error is a
    /// cancellation (Swift's `CancellationError`, or any error whose `isCancelled` is true). A promise that is already
    /// resolved is read at once, so the task has completed when this method returns; a pending promise is observed
    /// with `then`/`catch` on a private concurrent queue (never the main queue). The task does not retain the promise.
    ///
    /// - Returns: A task of the promise's value.
    public func asBFTask() -> BFTask<Value> {
        makeBFTask(from: self)
    }

    /// A PromiseKitStyle promise that resolves as this promise does.
    ///
    /// It fulfills with the value and rejects with the error (the same instance); a cancellation (Swift's
    /// `CancellationError`, or any error whose `isCancelled` is true) rejects it with `PMKError.cancelled`. A promise
    /// that is already resolved is read at once; a pending one is observed with `then`/`catch` on a private
    /// concurrent queue (never the main queue). The result does not retain this promise.
    ///
    /// - Returns: A PromiseKitStyle promise of the value.
    public func asPMKPromise() -> PromiseKitStyle.Promise<Value> {
        makePMKPromise(from: self)
    }
}
