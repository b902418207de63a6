/// Collects the outcomes of the inputs of `all` and `any` as they settle, under a lock.
///
/// The inputs' observers hold this collector, never the inputs themselves, so an input that nobody can resolve any
/// more is still deallocated (and leaves the global group).
final class Countdown: @unchecked Sendable {
    private let lock = PromiseLock()
    private var outcomes: [Result<Any, any Error>?]
    private var remaining: Int

    /// Creates a collector for `count` inputs.
    init(_ count: Int) {
        outcomes = Array(repeating: nil, count: count)
        remaining = count
    }

    /// Records the outcome of input `index`; returns all outcomes, in input order, when it was the last one.
    func settle(_ index: Int, _ outcome: Result<Any, any Error>) -> [Result<Any, any Error>]? {
        lock.withLock { () -> [Result<Any, any Error>]? in
            self.outcomes[index] = outcome
            self.remaining -= 1
            return self.remaining == 0 ? self.outcomes.map { $0! } : nil
        }
    }
}

/// A promise of any value type, seen through its outcome as `Any` (for `all` and `any` over mixed types).
protocol OutcomeObservable: AnyObject {
    /// Calls `body` inline once the promise is settled, with its value boxed in `Any` or its error.
    func observeOutcome(_ body: @escaping (Result<Any, any Error>) -> Void)
}

extension Promise: OutcomeObservable {
    func observeOutcome(_ body: @escaping (Result<Any, any Error>) -> Void) {
        observe(on: nil) { resolution in
            body(resolution.map { $0 as Any })
        }
    }
}
