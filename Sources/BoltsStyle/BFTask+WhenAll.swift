import PromisePlumbing

/// Collects the outcomes of `whenAll`'s input tasks by index and completes the combined task once
/// the last one arrives. Callbacks capture the collector, not the tasks, so no cycle is formed.
private final class BFWhenAllCollector<TResult, R>: @unchecked Sendable {
    private let lock = Lock()
    private var outcomes: [BFTaskState<TResult>]
    private var remaining: Int
    private let combined: BFTask<R>
    private let makeResult: ([TResult]) -> R

    init(count: Int, combined: BFTask<R>, makeResult: @escaping ([TResult]) -> R) {
        outcomes = Array(repeating: .pending, count: count)
        remaining = count
        self.combined = combined
        self.makeResult = makeResult
    }

    func record(_ state: BFTaskState<TResult>, at index: Int) {
        let last = lock.withLock { () -> Bool in
            outcomes[index] = state
            remaining -= 1
            return remaining == 0
        }
        guard last else { return }
        var results: [TResult] = []
        var errors: [any Error] = []
        var cancelled = false
        for outcome in lock.withLock({ outcomes }) {
            switch outcome {
            case .success(let value): results.append(value)
            case .error(let error): errors.append(error)
            case .cancelled: cancelled = true
            case .pending: preconditionFailure("BoltsStyle: whenAll finished with a pending input")
            }
        }
        if cancelled {
            combined.trySetStateNotNesting(.cancelled)
        } else if !errors.isEmpty {
            combined.trySetStateNotNesting(.error(BFAggregateError(errors: errors)))
        } else {
            combined.trySetStateNotNesting(.success(makeResult(results)))
        }
    }
}

extension BFTask {
    /// Creates a task that completes once all `tasks` have completed.
    ///
    /// The task is cancelled if any input was cancelled; otherwise it faults with a ``BFAggregateError``
    /// listing every error (in input order) if any input faulted; otherwise it succeeds. (Cancellation
    /// wins over errors, as in Bolts-Swift.)
    /// With no input it succeeds at once.
    ///
    /// - Parameter tasks: The tasks to wait for.
    /// - Returns: A task that completes after all `tasks`.
    public static func whenAll(_ tasks: [BFTask<TResult>]) -> BFTask<Void> {
        join(tasks) { _ in () }
    }

    /// Creates a task that completes once all `tasks` have completed; see `whenAll(_:)` with an array.
    ///
    /// - Parameter tasks: The tasks to wait for.
    /// - Returns: A task that completes after all `tasks`.
    public static func whenAll(_ tasks: BFTask<TResult>...) -> BFTask<Void> {
        whenAll(tasks)
    }

    /// Creates a task whose result is the array of the results of `tasks`, in input order, once all
    /// have succeeded. Faults and cancellation are reported as by `whenAll`.
    ///
    /// - Parameter tasks: The tasks to wait for.
    /// - Returns: A task with all results, in the order of `tasks`.
    public static func whenAllResult(_ tasks: [BFTask<TResult>]) -> BFTask<[TResult]> {
        join(tasks) { $0 }
    }

    /// Creates a task whose result is the array of the results of `tasks`, in input order.
    ///
    /// - Parameter tasks: The tasks to wait for.
    /// - Returns: A task with all results, in the order of `tasks`.
    public static func whenAllResult(_ tasks: BFTask<TResult>...) -> BFTask<[TResult]> {
        whenAllResult(tasks)
    }

    private static func join<R>(_ tasks: [BFTask<TResult>], _ makeResult: @escaping ([TResult]) -> R) -> BFTask<R> {
        if tasks.isEmpty { return BFTask<R>(makeResult([])) }
        let combined = BFTask<R>()
        let collector = BFWhenAllCollector(count: tasks.count, combined: combined, makeResult: makeResult)
        for (index, task) in tasks.enumerated() {
            task.addCallback { _, state in collector.record(state, at: index) }
        }
        return combined
    }
}
