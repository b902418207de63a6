import Dispatch
import Foundation
import PromiseConformance

/// Plugs Swift concurrency's own future, `Task`, into the conformance suite: a worked example of an adapter for a type
/// that has no `then`.
///
/// - A pending promise is a `Task` whose body awaits a continuation; the suite's fulfil and reject functions settle
///   it through a `TaskGate`, which keeps an outcome that arrives before the body has started.
/// - `then` is a new `Task` that awaits the upstream task's `result`, then runs the matching handler: on the queue
///   asked for (through a continuation that the queue's block resumes), or right in the task when the suite leaves
///   the choice to the implementation. A returned `Task` is adopted by awaiting its `value`.
/// - `all` is a throwing task group, Swift's own combinator. Cancellation is `Task.cancel()` together with settling
///   the gate with `CancellationError`, the error Swift's cancellation throws.
/// - `Task` has no notion of a foreign thenable, so assimilation uses the suite's ``Assimilation`` helper.
public struct SwiftTaskAdapter: PromiseAdapter, Codable {
    /// Swift's unstructured task of a sentinel.
    public typealias Promise = Task<Sentinel, any Error>

    /// Creates the adapter.
    public init() {}

    /// The column title: `Swift Task`.
    public var name: String { "Swift Task" }

    /// Assimilation (through the suite's helper), `all` (a task group) and cancellation. Swift has no race or any for
    /// tasks: a task group is the language's way to combine them.
    public var capabilities: Capabilities { [.assimilation, .all, .cancellation] }

    /// A `then` with no queue runs its handler inside a task of its own, on the concurrent pool.
    public var concurrentDefaultScheduling: String? {
        "each then is a Task of its own, and a handler with no queue runs in it, on the cooperative pool's threads"
    }

    /// Where `Task` departs from Promises/A+ and the suite's Swift clauses, as the suite observed it (Swift 6.3,
    /// `stdlib/public/Concurrency/Task.cpp` and the standard library's documentation of `Task` and task groups).
    public var deviations: [String: String] {
        let unordered =
            "stdlib/public/Concurrency/Task.cpp: a Task has no list of handlers in registration order: each then is a "
            + "task of its own awaiting the upstream one, and AsyncTask::waitFuture puts each waiter at the head of "
            + "the upstream task's wait queue, which completeFuture then enqueues from the head (last waiter first), "
            + "on the concurrent pool: the handlers run in no order Swift promises."
        let selfHeld =
            "stdlib/public/Concurrency/Task.cpp: a task holds itself until it completes (completeTask releases 'the "
            + "retain that a running task has on itself'), and a task suspended on a continuation that is never "
            + "resumed never completes; every task awaiting it stays suspended too, with its closure."
        let structured =
            "withThrowingTaskGroup cancels its children when its body throws but awaits them all before it returns, "
            + "and a child suspended in another Task's value does not stop when cancelled: all reports the first "
            + "rejection only once every input has settled."
        return [
            "2.2.6.1": unordered,
            "2.2.6.2": unordered,
            "swift.concurrentRegistration": unordered,
            "2.3.1":
                "stdlib/public/Concurrency/Task.cpp: no cycle detection, a task that awaits its own value joins its "
                + "own wait queue and is never resumed.",
            "swift.deepChain#an unsettled chain dropped": selfHeld,
            "swift.deepChain.dropped#an unsettled chain dropped": selfHeld,
            "swift.release#a pending promise nothing holds": selfHeld,
            "swift.combinator.all#one input rejects while others are pending": structured,
            "swift.combinator.all#the first of two rejections wins": structured,
        ]
    }

    // guide:begin task-adapter
    /// A task awaiting a gate, and the gate's settle function.
    public func pending() -> (
        promise: Promise, fulfill: @Sendable (Sentinel) -> Void, reject: @Sendable (any Error) -> Void
    ) {
        let gate = TaskGate()
        return (Task { try await gate.value }, { gate.settle(.success($0)) }, { gate.settle(.failure($0)) })
    }

    /// A new task that awaits the upstream task's result and runs the matching handler.
    public func then(
        _ promise: Promise, on queue: DispatchQueue?,
        onFulfilled: (@Sendable (Sentinel) -> HandlerResult<Promise>)?,
        onRejected: (@Sendable (any Error) -> HandlerResult<Promise>)?
    ) -> Promise {
        Task {
            let handler: @Sendable () -> HandlerResult<Promise>
            switch await promise.result {
            case .success(let value):
                guard let onFulfilled else { return value }
                handler = { onFulfilled(value) }
            case .failure(let error):
                guard let onRejected else { throw error }
                handler = { onRejected(error) }
            }
            switch await run(handler, on: queue) {
            case .fulfill(let value): return value
            case .reject(let error): throw error
            case .adopt(let task): return try await task.value
            case .assimilate(let thenable): return try await assimilated(thenable).value
            }
        }
    }

    /// Runs `handler` on `queue`, resuming the awaiting task with what it returns; or here, with no queue.
    private func run(
        _ handler: @escaping @Sendable () -> HandlerResult<Promise>, on queue: DispatchQueue?
    ) async -> HandlerResult<Promise> {
        guard let queue else { return handler() }
        return await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: handler()) }
        }
    }

    // guide:end task-adapter

    /// `Task { value }`.
    public func fulfilled(_ value: Sentinel) -> Promise { Task { value } }

    /// `Task { throw error }`.
    public func rejected(_ error: any Error) -> Promise { Task { throw error } }

    /// A pending task settled by the suite's ``Assimilation`` helper.
    public func assimilated(_ thenable: any Thenable) -> Promise {
        let gate = TaskGate()
        Assimilation.resolve(thenable, gate.settle)
        return Task { try await gate.value }
    }

    /// A throwing task group with one child per input, which awaits that input's value.
    public func all(_ promises: [Promise], completion: @escaping @Sendable (Result<[Sentinel], any Error>) -> Void) {
        Task {
            do {
                let values = try await withThrowingTaskGroup(of: (Int, Sentinel).self) { group in
                    for (index, promise) in promises.enumerated() {
                        group.addTask { (index, try await promise.value) }
                    }
                    var values = [Sentinel?](repeating: nil, count: promises.count)
                    for try await (index, value) in group { values[index] = value }
                    return values.compactMap { $0 }
                }
                completion(.success(values))
            } catch {
                completion(.failure(error))
            }
        }
    }

    /// A pending task whose cancel function cancels it and settles its gate with `CancellationError`.
    ///
    /// `Task.cancel()` alone only sets a flag that the task's code may look at later: a cancel followed by a fulfil
    /// before the task has started would end fulfilled. Settling the gate makes the first of the two win.
    public func cancellablePending() -> (
        promise: Promise, fulfill: @Sendable (Sentinel) -> Void, cancel: @Sendable () -> Void
    ) {
        let gate = TaskGate()
        let task = Task { try await gate.value }
        return (
            task, { gate.settle(.success($0)) },
            {
                gate.settle(.failure(CancellationError()))
                task.cancel()
            }
        )
    }

    /// Swift's `CancellationError`.
    public func isCancellation(_ error: any Error) -> Bool { error is CancellationError }
}
