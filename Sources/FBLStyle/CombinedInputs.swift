// CombinedInputs.swift: how `all` and `any` watch their inputs, in the manner of Google's core.
//
// Google's `all` and `any` do their work on the queue they are given: a block there observes each input on the same
// queue, and each of those observations reads the state of every input, so the combined promise settles in the first
// observation that finds them all fulfilled (`all`) or all settled (`any`), not in the last one to run. Here each
// input also has an inline observer that records its outcome as it settles; the observations on the queue read those
// records. The records hold no input, so an input that nobody can resolve any more is still deallocated (and leaves
// the global group).

import Dispatch
import PromisePlumbing

/// A promise of any value type, seen through its outcome as `Any` (for `all` and `any` over mixed types).
protocol OutcomeObservable: AnyObject {
    /// Calls `body` once the promise is settled, on `queue` (inline if nil), with its value boxed in `Any` or its error.
    func observeOutcome(on queue: DispatchQueue?, _ body: @escaping (Result<Any, any Error>) -> Void)
}

extension Promise: OutcomeObservable {
    /// Calls `body` once `self` is settled, on `queue` (inline if nil), with its value boxed in `Any` or its error.
    func observeOutcome(on queue: DispatchQueue?, _ body: @escaping (Result<Any, any Error>) -> Void) {
        observe(on: queue) { resolution in
            body(resolution.map { $0 as Any })
        }
    }
}

/// The outcomes of the inputs of one `all` or `any` as they settle, under a lock; nil for an input still pending.
final class CombinedInputs: @unchecked Sendable {
    private let lock = Lock()
    private var outcomes: [Result<Any, any Error>?]

    private init(count: Int) {
        outcomes = Array(repeating: nil, count: count)
    }

    /// The outcomes recorded so far, in input order.
    var current: [Result<Any, any Error>?] {
        lock.withLock { outcomes }
    }

    private func record(_ index: Int, _ outcome: Result<Any, any Error>) {
        lock.withLock { outcomes[index] = outcome }
    }

    /// Google's shape of a combinator: on `queue`, observes each input on `queue`; each observation calls `observed`
    /// with that input's outcome and the outcomes of all inputs at that moment.
    static func observe(
        _ inputs: [any OutcomeObservable], on queue: DispatchQueue,
        _ observed: @escaping (_ outcome: Result<Any, any Error>, _ all: [Result<Any, any Error>?]) -> Void
    ) {
        let combined = CombinedInputs(count: inputs.count)
        nonisolated(unsafe) let inputs = inputs
        nonisolated(unsafe) let observed = observed
        queue.async(group: promisesGroup) {
            for (index, input) in inputs.enumerated() {
                input.observeOutcome(on: nil) { combined.record(index, $0) }
                input.observeOutcome(on: queue) { observed($0, combined.current) }
            }
        }
    }
}
