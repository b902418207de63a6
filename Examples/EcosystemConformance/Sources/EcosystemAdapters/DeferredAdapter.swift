import Deferred
import Dispatch
import Foundation
import PromiseConformance

import class Task.Task

// `import class Task.Task`: the library's module `Task` and its class `Task` share their name with Swift
// concurrency's `Task`, which every file sees. The scoped import says which one this file means, the library's class
// (a plain `import Task` does the same silently: there `Task { ... }` builds the library's task, and Swift's is
// `_Concurrency.Task`). The `run` command's main.swift does not import `Task` at all.

/// Deferred's task of a sentinel. At file scope, where `Task` is the library's class (see the scoped import above).
private typealias SentinelTask = Task<Sentinel>

/// Deferred's `Task` of a sentinel, in a wrapper the suite can pass between threads: `Task` (and the `Deferred` and
/// `Future` it forwards to) guard their state with atomics, but are not declared `Sendable`.
public struct DeferredTask: @unchecked Sendable {
    /// The library's task.
    public let task: Task<Sentinel>
}

/// Plugs bignerdranch/Deferred's `Task` (module `Task`, over module `Deferred`; master at c82b9ef) into the conformance
/// suite, written as its documentation shows: a pending task is `Task(promise)` over a `Task<Sentinel>.Promise` (a
/// `Deferred` of a `Result`) filled with `succeed(with:)` and `fail(with:)`, and `then` chains with the library's
/// `andThen(upon:start:)`.
///
/// - `Task` has no single call taking both handlers of A+ `then` (`map` and `andThen` pass on only a success,
///   `recover` and `fallback` only a failure, and chaining the two would hand the fulfilment handler's error to the
///   rejection handler), so `then` is `FutureProtocol.andThen(upon:start:)` over the task's `Result`: its closure
///   calls the matching handler and returns a future of the next `Result` (an already-filled `Future(value:)` for a
///   value or an error, or the returned task to adopt), and the library fills the derived task with that future's
///   value. The derived task is `Task(future)`, with no cancellation handler of its own: cancelling the upstream task
///   fails it, and the failure flows down. (Forwarding `cancel()` upstream, as the library's `map` does with
///   `uponCancel: cancel`, would make each task hold the one before it, and freeing a 20,000-link chain of them
///   recurses once per link.)
/// - A handler asked to run on a queue is submitted to it (a `DispatchQueue` is an `Executor`: one `async` block per
///   call); with no queue it runs on `DispatchQueue.any()`, the library's `defaultUponExecutor`.
/// - Cancellation is the library's: `Task(promise, uponCancel:)`, whose handler fails the promise with
///   `CocoaError(.userCancelled)`, the error the documentation of `Task` names; the cancel function is `cancel()`.
/// - Deferred adopts only its own futures: assimilation uses the suite's ``Assimilation`` helper. `all` is
///   `Collection.allSucceeded()` and `race` is `Sequence.firstFilled()`. There is no `any`.
public struct DeferredAdapter: PromiseAdapter, Codable {
    /// The wrapper around Deferred's task.
    public typealias Promise = DeferredTask

    /// Creates the adapter.
    public init() {}

    /// The column title: `Deferred`.
    public var name: String { "Deferred" }

    /// Assimilation (through the suite's helper), `all` (`allSucceeded()`), `race` (`firstFilled()`) and cancellation
    /// (`Task.cancel()`).
    public var capabilities: Capabilities { [.assimilation, .all, .race, .cancellation] }

    /// The library's default executor, `DispatchQueue.any()`, is a global concurrent queue.
    public var concurrentDefaultScheduling: String? {
        "Sources/Deferred/FutureUpon.swift:16-23 (`defaultUponExecutor` is `DispatchQueue.any()`) and "
            + "Sources/Deferred/Executor.swift:64-66 ('A generic catch-all dispatch queue, for when you just want to "
            + "throw some work onto the concurrent pile'): `fill` submits each handler to its executor as its own "
            + "block (Sources/Deferred/Deferred.swift:70-75), so two handlers with the default executor may run at once "
            + "and in either order."
    }

    /// Where Deferred departs from the suite's clauses by design in some runs and not in others, as its documentation
    /// says (master at c82b9ef, paths relative to its repository).
    ///
    /// Only `swift.cancel`'s case "fulfil after cancellation" departs, and only when the fulfilment overtakes the
    /// asynchronous cancellation handler, which is up to the scheduler: a deviation must show every time, so the clause
    /// is declared a flaky departure (a whole clause; the suite then runs it 10 times, and a failure in all 10 stays a
    /// failure).
    public var flakyDepartures: [String: String] {
        [
            "swift.cancel":
                "Sources/Task/ExistentialTask.swift:219-222: a task's cancellation handler \"will be called "
                + "asynchronously, but not on any specific queue\", and Sources/Task/Task.swift:45-55 makes `cancel()` "
                + "\"a best effort\". On Linux `cancel()` (ExistentialTask.swift:280-286) only marks the task cancelled "
                + "and submits the handler to `DispatchQueue.any()` (`markCancelled`, lines 271-277): a fulfilment made "
                + "right after `cancel()` (case \"fulfil after cancellation\") wins whenever it reaches the promise "
                + "before that handler runs."
        ]
    }

    /// A task over a `Task<Sentinel>.Promise`, filled with `succeed(with:)` and `fail(with:)` (a no-op once filled).
    public func pending() -> (
        promise: DeferredTask, fulfill: @Sendable (Sentinel) -> Void, reject: @Sendable (any Error) -> Void
    ) {
        nonisolated(unsafe) let source = SentinelTask.Promise()
        return (DeferredTask(task: Task(source)), { source.succeed(with: $0) }, { source.fail(with: $0) })
    }

    /// `Task(success:)`.
    public func fulfilled(_ value: Sentinel) -> DeferredTask { DeferredTask(task: Task(success: value)) }

    /// `Task(failure:)`.
    public func rejected(_ error: any Error) -> DeferredTask { DeferredTask(task: Task(failure: error)) }

    /// `andThen(upon:start:)` over the task's `Result`: the matching handler's result as a future to fill the derived
    /// task with.
    public func then(
        _ promise: DeferredTask, on queue: DispatchQueue?,
        onFulfilled: (@Sendable (Sentinel) -> HandlerResult<DeferredTask>)?,
        onRejected: (@Sendable (any Error) -> HandlerResult<DeferredTask>)?
    ) -> DeferredTask {
        let upstream = promise.task
        let next = upstream.andThen(upon: queue ?? .any()) {
            (outcome: SentinelTask.Result) -> Future<SentinelTask.Result> in
            switch outcome {
            case .success(let value):
                guard let onFulfilled else { return Future(value: outcome) }
                return future(onFulfilled(value))
            case .failure(let error):
                guard let onRejected else { return Future(value: outcome) }
                return future(onRejected(error))
            }
        }
        return DeferredTask(task: Task(next))
    }

    /// What the handler asks for, as a future of a `Result`: already filled, or the task to adopt.
    private func future(_ result: HandlerResult<DeferredTask>) -> Future<SentinelTask.Result> {
        switch result {
        case .fulfill(let value): Future(value: .success(value))
        case .reject(let error): Future(value: .failure(error))
        case .adopt(let other): Future(other.task)
        case .assimilate(let thenable): Future(assimilated(thenable).task)
        }
    }

    /// A task over a promise filled with the thenable's outcome, by the suite's ``Assimilation`` helper.
    public func assimilated(_ thenable: any Thenable) -> DeferredTask {
        nonisolated(unsafe) let source = SentinelTask.Promise()
        Assimilation.resolve(thenable) { source.fill(with: $0) }
        return DeferredTask(task: Task(source))
    }

    /// `Collection.allSucceeded()`, whose result is handed to `completion` on `DispatchQueue.any()`.
    public func all(_ promises: [DeferredTask], completion: @escaping @Sendable (Result<[Sentinel], any Error>) -> Void)
    {
        promises.map(\.task).allSucceeded().upon(.any()) { completion($0) }
    }

    /// `Sequence.firstFilled()`, as a task.
    public func race(_ promises: [DeferredTask]) -> DeferredTask {
        DeferredTask(task: Task(promises.map(\.task).firstFilled()))
    }

    /// A task over a promise whose cancellation handler fails it with `CocoaError(.userCancelled)`; the cancel function
    /// is the task's `cancel()`.
    public func cancellablePending() -> (
        promise: DeferredTask, fulfill: @Sendable (Sentinel) -> Void, cancel: @Sendable () -> Void
    ) {
        nonisolated(unsafe) let source = SentinelTask.Promise()
        nonisolated(unsafe) let task = SentinelTask(
            source, uponCancel: { source.fail(with: CocoaError(.userCancelled)) })
        return (DeferredTask(task: task), { source.succeed(with: $0) }, { task.cancel() })
    }

    /// `CocoaError.userCancelled`, what the cancellation handler fails the promise with.
    public func isCancellation(_ error: any Error) -> Bool { (error as? CocoaError)?.code == .userCancelled }

    /// `swift.release` watches the library's `Task` object, not the wrapper (which has no identity).
    public func lifetimeObject(of promise: DeferredTask) -> AnyObject? { promise.task }
}
