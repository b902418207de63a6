// Delays. As in Bolts-Swift, `withDelay` is a static method of every `BFTask<T>` and returns a `BFTask<Void>`
// (`BFTask<String>.withDelay(0.01)` compiles). The overloads in the `TResult == Void` extension only let
// `BFTask.withDelay(0.01)` compile without a type argument, which an unconstrained method cannot infer.

import Dispatch
import Foundation

extension BFTask {
    /// Creates a task that succeeds after `delay` seconds.
    ///
    /// If `cancellationToken` is cancelled before the delay has passed (or already is), the task is
    /// cancelled at once instead. Whatever `TResult` names it, the task is a `BFTask<Void>`.
    ///
    /// - Parameters:
    ///   - delay: The delay in seconds.
    ///   - cancellationToken: Cancels the delay.
    /// - Returns: A task that succeeds after the delay.
    public static func withDelay(
        _ delay: TimeInterval,
        cancellationToken: BFCancellationToken? = nil
    ) -> BFTask<Void> {
        bfDelayedTask(delay, cancellationToken)
    }

    /// Creates a task that succeeds after `delay` seconds unless `cancellationToken` is cancelled
    /// first: ``withDelay(_:cancellationToken:)`` with the token unlabelled.
    ///
    /// - Parameters:
    ///   - delay: The delay in seconds.
    ///   - cancellationToken: Cancels the delay.
    /// - Returns: A task that succeeds after the delay.
    public static func withDelay(_ delay: TimeInterval, _ cancellationToken: BFCancellationToken) -> BFTask<Void> {
        bfDelayedTask(delay, cancellationToken)
    }
}

extension BFTask where TResult == Void {
    /// Creates a task that succeeds after `delay` seconds: ``withDelay(_:cancellationToken:)`` for the
    /// spelling `BFTask.withDelay(…)`, without a type argument.
    ///
    /// - Parameters:
    ///   - delay: The delay in seconds.
    ///   - cancellationToken: Cancels the delay.
    /// - Returns: A task that succeeds after the delay.
    @_documentation(visibility: internal)
    public static func withDelay(
        _ delay: TimeInterval,
        cancellationToken: BFCancellationToken? = nil
    ) -> BFTask<Void> {
        bfDelayedTask(delay, cancellationToken)
    }

    /// Creates a task that succeeds after `delay` seconds unless `cancellationToken` is cancelled
    /// first: ``withDelay(_:_:)`` for the spelling `BFTask.withDelay(…)`, without a type argument.
    ///
    /// - Parameters:
    ///   - delay: The delay in seconds.
    ///   - cancellationToken: Cancels the delay.
    /// - Returns: A task that succeeds after the delay.
    @_documentation(visibility: internal)
    public static func withDelay(_ delay: TimeInterval, _ cancellationToken: BFCancellationToken) -> BFTask<Void> {
        bfDelayedTask(delay, cancellationToken)
    }
}

/// A task that succeeds after `delay` seconds, or is cancelled as soon as `cancellationToken` is.
private func bfDelayedTask(_ delay: TimeInterval, _ cancellationToken: BFCancellationToken?) -> BFTask<Void> {
    let task = BFTask<Void>()
    if cancellationToken?.isCancellationRequested == true {
        task.trySetState(.cancelled)
        return task
    }
    let registration = cancellationToken?.register { task.trySetState(.cancelled) }
    DispatchQueue.global(qos: .default).asyncAfter(deadline: .now() + delay) {
        registration?.dispose()
        if cancellationToken?.isCancellationRequested == true {
            task.trySetState(.cancelled)
        } else {
            task.trySetState(.success(()))
        }
    }
    return task
}
