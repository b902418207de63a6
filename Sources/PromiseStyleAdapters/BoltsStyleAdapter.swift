import BoltsStyle
import Dispatch
import PromiseConformance

/// Plugs `BoltsStyle` into the conformance suite: a promise is a `BFTask<Sentinel>`.
///
/// - `then` is one `continueWithTask` on `.queue(queue)`, or on `BFExecutor.default` when the suite leaves the choice
///   to the implementation; the continuation sees every outcome, so it routes a fault to `onRejected` and a
///   cancellation to `onRejected` with `BFCancelledError` (or passes either through when that handler is absent).
/// - Adopting a task is returning it from the continuation (Bolts flattens it); a foreign thenable is settled into a
///   `BFTaskCompletionSource`, the Bolts way of wrapping a callback API.
/// - `all` is `whenAllResult`; cancellation is `BFTaskCompletionSource.cancel()`.
public struct BoltsStyleAdapter: PromiseAdapter {
    /// A Bolts task of a sentinel.
    public typealias Promise = BFTask<Sentinel>

    /// Creates the adapter.
    public init() {}

    /// The column title: `BoltsStyle`.
    public var name: String { "BoltsStyle" }

    /// Assimilation, `all` and cancellation. Bolts' `whenAny` completes without telling which task won and with
    /// which outcome, so `race` and `any` are not offered.
    public var capabilities: Capabilities { [.assimilation, .all, .cancellation] }

    /// Where Bolts departs from Promises/A+ in some runs only: a continuation added from another thread once the task
    /// has completed runs at once, so one that a queued continuation adds (2.2.6's case "a handler added inside
    /// another handler runs after the others") is sent to the queue ahead of the callbacks the completing thread has
    /// not sent yet, when that thread is slow (1, 3, 2), as in Bolts-Swift, whose completed task runs a new
    /// continuation at once too.
    public var flakyDepartures: [String: String] {
        let reason =
            "a continuation another thread adds once the task has completed runs at once, ahead of the callbacks "
            + "the completing thread has not sent to their executor yet (1, 3, 2), as in Bolts-Swift"
        return ["2.2.6.1": reason, "2.2.6.2": reason]
    }

    /// Where Bolts departs from Promises/A+ on purpose.
    public var deviations: [String: String] {
        [
            "2.2.4":
                "BFExecutor.default runs a continuation inline, on the thread that completes the task or on the "
                + "caller's thread when the task is already complete (up to a nesting depth, then it hops to a "
                + "global queue): Bolts trades A+'s always-asynchronous handlers for fewer thread hops.",
            "2.3.1":
                "A continuation that returns the very task continueWithTask returned is not detected: the task waits "
                + "for itself and never completes (Bolts has no TypeError for cycles).",
            "generated#2.2.6.1":
                "A continuation the completing thread adds while it runs the task's callbacks (from inside an "
                + "inline one) runs at once, ahead of the callbacks still waiting (A, C, B), as in Bolts-Swift; "
                + "the fixed 2.2.6 cases never add one from inside.",
            "generated#2.2.6.2":
                "As for 2.2.6.1: a continuation the completing thread adds while it drains runs ahead of those "
                + "still waiting.",
            "swift.combinator.all":
                "whenAll waits for every task and then faults with a BFAggregateError carrying every error, instead "
                + "of rejecting with the first error as soon as it happens.",
        ]
    }

    /// A pending task and its completion source's `trySet` functions.
    public func pending() -> (
        promise: Promise, fulfill: @Sendable (Sentinel) -> Void, reject: @Sendable (any Error) -> Void
    ) {
        let source = BFTaskCompletionSource<Sentinel>()
        return (source.task, { source.trySet(result: $0) }, { source.trySet(error: $0) })
    }

    /// `BFTask(result)`.
    public func fulfilled(_ value: Sentinel) -> Promise { BFTask(value) }

    /// `BFTask(error:)`.
    public func rejected(_ error: any Error) -> Promise { BFTask(error: error) }

    /// One `continueWithTask` that routes the outcome to the matching handler.
    public func then(
        _ promise: Promise,
        on queue: DispatchQueue?,
        onFulfilled: (@Sendable (Sentinel) -> HandlerResult<Promise>)?,
        onRejected: (@Sendable (any Error) -> HandlerResult<Promise>)?
    ) -> Promise {
        let executor: BFExecutor = queue.map { .queue($0) } ?? .default
        return promise.continueWithTask(executor) { completed in
            if let value = completed.result {
                return onFulfilled.map { task(for: $0(value)) } ?? completed
            }
            guard let onRejected else { return completed }
            return task(for: onRejected(completed.error ?? BFCancelledError()))
        }
    }

    /// A completion source settled by the thenable's first callback.
    public func assimilated(_ thenable: any Thenable) -> Promise {
        let source = BFTaskCompletionSource<Sentinel>()
        Assimilation.resolve(thenable) { outcome in
            switch outcome {
            case .success(let value): source.trySet(result: value)
            case .failure(let error): source.trySet(error: error)
            }
        }
        return source.task
    }

    /// `whenAllResult`: its values, or its error as is (a `BFAggregateError` once every task has completed).
    public func all(_ promises: [Promise], completion: @escaping @Sendable (Result<[Sentinel], any Error>) -> Void) {
        BFTask.whenAllResult(promises).continueWith(.immediate) { task in
            if let values = task.result {
                completion(.success(values))
            } else {
                completion(.failure(task.error ?? BFCancelledError()))
            }
        }
    }

    /// A completion source with `trySet(result:)` and `tryCancel()`.
    public func cancellablePending() -> (
        promise: Promise, fulfill: @Sendable (Sentinel) -> Void, cancel: @Sendable () -> Void
    ) {
        let source = BFTaskCompletionSource<Sentinel>()
        return (source.task, { source.trySet(result: $0) }, { source.tryCancel() })
    }

    /// `BFCancelledError` is how this adapter shows a cancelled task to a rejection handler.
    public func isCancellation(_ error: any Error) -> Bool { error is BFCancelledError }

    /// Each `continue…` method users write, on each executor that matters: `.default` (inline up to a nesting
    /// depth, then a hop), `.immediate` (always inline) and `.queue` (the queue the suite passes).
    ///
    /// - `continueWith` and `continueWithTask` take both handlers: the continuation sees the completed task and
    ///   routes it (a cancelled task goes to `onRejected` as `BFCancelledError`); without the handler for the
    ///   outcome it returns the value or throws the error (`continueWith`), or returns the completed task
    ///   (`continueWithTask`).
    /// - `continueOnSuccessWith…` takes `onFulfilled` alone, `continueOnErrorWith…` `onRejected` alone: the other
    ///   outcomes pass through Bolts itself.
    /// - The forms without `Task` return a value or throw; those with `Task` also adopt a task or a thenable.
    public var entryPoints: [EntryPoint<Promise>] {
        let executors: [(name: String, takesQueue: Bool, executor: @Sendable (DispatchQueue?) -> BFExecutor)] = [
            (".default", false, { _ in .default }), (".immediate", false, { _ in .immediate }),
            (".queue", true, { queue in queue.map { .queue($0) } ?? .default }),
        ]
        let plain: ResultKinds = [.value, .throw]
        let adopting: ResultKinds = [.value, .throw, .adopt, .assimilate]
        return executors.flatMap { executorName, takesQueue, executor in
            [
                EntryPoint(
                    "continueWith(\(executorName))", handlers: [.onFulfilled, .onRejected], results: plain,
                    takesQueue: takesQueue
                ) { promise, queue, onFulfilled, onRejected in
                    promise.continueWith(executor(queue)) { completed in
                        if let value = completed.result {
                            return try onFulfilled.map { try $0(value).value() } ?? value
                        }
                        let error = completed.error ?? BFCancelledError()
                        guard let onRejected else { throw error }
                        return try onRejected(error).value()
                    }
                },
                EntryPoint(
                    "continueWithTask(\(executorName))", handlers: [.onFulfilled, .onRejected], results: adopting,
                    takesQueue: takesQueue
                ) { promise, queue, onFulfilled, onRejected in
                    promise.continueWithTask(executor(queue)) { completed in
                        if let value = completed.result { return onFulfilled.map { task(for: $0(value)) } ?? completed }
                        return onRejected.map { task(for: $0(completed.error ?? BFCancelledError())) } ?? completed
                    }
                },
                EntryPoint(
                    "continueOnSuccessWith(\(executorName))", handlers: .onFulfilled, results: plain,
                    takesQueue: takesQueue
                ) { promise, queue, onFulfilled, _ in
                    promise.continueOnSuccessWith(executor(queue)) { value in
                        try onFulfilled.map { try $0(value).value() } ?? value
                    }
                },
                EntryPoint(
                    "continueOnSuccessWithTask(\(executorName))", handlers: .onFulfilled, results: adopting,
                    takesQueue: takesQueue
                ) { promise, queue, onFulfilled, _ in
                    promise.continueOnSuccessWithTask(executor(queue)) { value in
                        onFulfilled.map { task(for: $0(value)) } ?? BFTask(value)
                    }
                },
                EntryPoint(
                    "continueOnErrorWith(\(executorName))", handlers: .onRejected, results: plain,
                    takesQueue: takesQueue
                ) { promise, queue, _, onRejected in
                    promise.continueOnErrorWith(executor(queue)) { error in
                        guard let onRejected else { throw error }
                        return try onRejected(error).value()
                    }
                },
                EntryPoint(
                    "continueOnErrorWithTask(\(executorName))", handlers: .onRejected, results: adopting,
                    takesQueue: takesQueue
                ) { promise, queue, _, onRejected in
                    promise.continueOnErrorWithTask(executor(queue)) { error in
                        onRejected.map { task(for: $0(error)) } ?? BFTask(error: error)
                    }
                },
            ]
        }
    }

    private func task(for result: HandlerResult<Promise>) -> Promise {
        switch result {
        case .fulfill(let value): BFTask(value)
        case .reject(let error): BFTask(error: error)
        case .adopt(let task): task
        case .assimilate(let thenable): assimilated(thenable)
        }
    }
}
