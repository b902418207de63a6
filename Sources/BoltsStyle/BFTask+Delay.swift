import Dispatch
import Foundation

extension BFTask where TResult == Void {
    /// Creates a task that succeeds after `delay` seconds.
    ///
    /// If `cancellationToken` is cancelled before the delay has passed (or already is), the task is
    /// cancelled at once instead.
    ///
    /// - Parameters:
    ///   - delay: The delay in seconds.
    ///   - cancellationToken: Cancels the delay.
    /// - Returns: A task that succeeds after the delay.
    public static func withDelay(
        _ delay: TimeInterval,
        cancellationToken: BFCancellationToken? = nil
    ) -> BFTask<Void> {
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

    /// Creates a task that succeeds after `delay` seconds unless `cancellationToken` is cancelled
    /// first (Bolts-Swift's spelling of ``withDelay(_:cancellationToken:)``).
    ///
    /// - Parameters:
    ///   - delay: The delay in seconds.
    ///   - cancellationToken: Cancels the delay.
    /// - Returns: A task that succeeds after the delay.
    public static func withDelay(_ delay: TimeInterval, _ cancellationToken: BFCancellationToken) -> BFTask<Void> {
        withDelay(delay, cancellationToken: cancellationToken)
    }
}
