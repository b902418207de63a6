import Dispatch
import Foundation

extension DispatchGroup {
    /// The process-wide group of all promise work: every pending promise is in it until it is resolved (or
    /// deallocated), and every chained block while it is queued or running.
    ///
    /// The original keeps this internal; here it is public so that tests and tools can wait on it directly.
    public static var promises: DispatchGroup { promisesGroup }
}

/// Waits until all promise work is done: no pending promise left and no chained block queued or running.
///
/// Meant for tests: start the promise work, call `waitForPromises(timeout:)`, then check the results. On the main
/// thread it keeps serving the main queue (by running the current run loop in short slices, as the original does) so
/// that blocks on the default queue can run; elsewhere it simply waits on ``Dispatch/DispatchGroup/promises``.
///
/// - Important: The group is global. A promise that is never resolved keeps it entered for as long as the promise is
///   alive, so every wait returns `false` until it is resolved or deallocated; work started by other code (other
///   tests running in parallel) is waited for as well.
/// - Parameter timeout: The maximum time to wait, in seconds.
/// - Returns: `true` if all promise work finished in time, `false` if the timeout passed with work still pending.
public func waitForPromises(timeout: TimeInterval) -> Bool {
    let deadline = DispatchTime.now() + timeout
    guard Thread.isMainThread else {
        return promisesGroup.wait(timeout: deadline) == .success
    }
    while promisesGroup.wait(timeout: .now() + 0.01) == .timedOut {
        if DispatchTime.now() >= deadline { return false }
        RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.01))
    }
    return true
}
