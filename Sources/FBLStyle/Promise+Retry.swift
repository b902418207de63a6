import Dispatch
import Foundation

#if CheckedHandlers
    /// The type of `retry`'s condition: decides, from the retries left and the error, whether to retry. Under
    /// CheckedHandlers, `@Sendable (_ count: Int, _ error: any Error) -> Bool`.
    public typealias RetryPredicate = @Sendable (_ count: Int, _ error: any Error) -> Bool
#else
    /// The type of `retry`'s condition: decides, from the retries left and the error, whether to retry.
    public typealias RetryPredicate = (_ count: Int, _ error: any Error) -> Bool
#endif

/// Runs `work` and, while the promise it returns is rejected, runs it again after `interval` seconds.
///
/// `work` first runs asynchronously on `queue`. When the promise it returns is rejected (or `work` throws), `work`
/// runs again after `interval` seconds, at most `count` more times, so `work` runs at most `1 + count` times. Before
/// each retry, `predicate` (if any) runs on `queue` with the number of retries left and the error; returning `false`
/// stops retrying at once. The returned promise is fulfilled with the first value, or rejected with the last error.
/// - Parameters:
///   - queue: The queue to run `work` and `predicate` on.
///   - count: The maximum number of retries after the first attempt (default 1, as in the original).
///   - interval: The time to wait before each retry, in seconds (default 1, as in the original).
///   - predicate: Decides whether to retry, given the retries left and the error; `nil` always retries.
///   - work: A block returning the promise of one attempt.
/// - Returns: A promise fulfilled like the first successful attempt, or rejected with the last error.
public func retry<Value>(
    on queue: DispatchQueue = .promises,
    attempts count: Int = 1,
    delay interval: TimeInterval = 1,
    condition predicate: RetryPredicate? = nil,
    _ work: @escaping Promise<Value>.Do<Promise<Value>>
) -> Promise<Value> {
    let loop = RetryLoop(queue: queue, interval: interval, predicate: predicate, work: work)
    queue.async(group: promisesGroup) {
        loop.attempt(retriesLeft: count)
    }
    return loop.promise
}

/// The state of one `retry` call: runs attempts on its queue until one succeeds or retrying stops.
private final class RetryLoop<Value>: @unchecked Sendable {
    let promise = Promise<Value>(pending: ())
    private let queue: DispatchQueue
    private let interval: TimeInterval
    private let predicate: ((Int, any Error) -> Bool)?
    private let work: () throws -> Promise<Value>

    init(
        queue: DispatchQueue,
        interval: TimeInterval,
        predicate: ((Int, any Error) -> Bool)?,
        work: @escaping () throws -> Promise<Value>
    ) {
        self.queue = queue
        self.interval = interval
        self.predicate = predicate
        self.work = work
    }

    /// Runs one attempt; called on `queue`.
    func attempt(retriesLeft: Int) {
        do {
            try work().observe(on: queue) { resolution in
                self.handle(resolution, retriesLeft: retriesLeft)
            }
        } catch {
            handle(.failure(error), retriesLeft: retriesLeft)
        }
    }

    /// Settles the promise or schedules the next attempt; called on `queue`.
    private func handle(_ resolution: Promise<Value>.Resolution, retriesLeft: Int) {
        guard case .failure(let error) = resolution,
            retriesLeft > 0, predicate?(retriesLeft, error) ?? true
        else {
            promise.resolve(resolution)
            return
        }
        // The pending `promise` keeps the global group entered while the timer runs.
        queue.asyncAfter(deadline: .now() + interval) {
            self.attempt(retriesLeft: retriesLeft - 1)
        }
    }
}
