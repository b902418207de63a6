// Continuations: every `continue…` method goes through `enqueueContinuation`, which creates one
// `BFContinuation` and adds exactly one callback to the task. When the task completes, the callback
// checks the cancellation token, passes through outcomes the continuation does not handle, and
// otherwise runs the user's closure on the executor. A closure that returns a task is followed
// until that task completes.

import Dispatch

extension BFTask {
    /// Adds the single callback behind every `continue…` method and returns the derived task.
    @inlinable @inline(__always)
    func enqueueContinuation<S>(
        _ executor: BFExecutor,
        _ token: BFCancellationToken?,
        _ body: BFContinuationBody<TResult, S>
    ) -> BFTask<S> {
        let derived = BFTask<S>()
        let continuation = BFContinuation(body, executor, token, derived)
        addCallback { task, state in continuation.run(after: task, state) }
        return derived
    }
}

/// One continuation, from `continue…` until it has run: the user's closure, its executor and token, and the task it
/// completes.
///
/// It is the one object a continuation adds besides the derived task. A closure that captures a single object uses
/// that object as its context and allocates none of its own, so the callback the task keeps costs nothing more, and a
/// hop to a queue costs the block and nothing else (a closure capturing the parts one by one would allocate a context
/// when added and another for the hop).
@usableFromInline
final class BFContinuation<TResult, S>: @unchecked Sendable {
    @usableFromInline let body: BFContinuationBody<TResult, S>
    @usableFromInline let executor: BFExecutor
    @usableFromInline let token: BFCancellationToken?
    @usableFromInline let derived: BFTask<S>
    /// The completed task, stored only when the continuation hops to its executor: a pending task and its
    /// continuation never reference each other. Written before the hop, read after it, so the queue orders them.
    @usableFromInline var completedTask: BFTask<TResult>?

    @inlinable
    init(
        _ body: BFContinuationBody<TResult, S>, _ executor: BFExecutor, _ token: BFCancellationToken?,
        _ derived: BFTask<S>
    ) {
        self.body = body
        self.executor = executor
        self.token = token
        self.derived = derived
    }

    /// Runs once `task` has completed with `state`: decides whether `body` runs, and where.
    @inlinable
    func run(after task: BFTask<TResult>, _ state: BFTaskState<TResult>) {
        if let token, token.isCancellationRequested {
            derived.trySetState(.cancelled)
            return
        }
        // Outcomes this continuation does not handle pass straight through, without the executor.
        switch state {
        case .success(let value):
            switch body {
            case .error(_, let resultIsS), .errorTask(_, let resultIsS):
                derived.trySetState(.success(resultIsS(value)))
                return
            default:
                break
            }
        case .error(let error):
            switch body {
            case .success, .successTask:
                derived.trySetState(.error(error))
                return
            default:
                break
            }
        case .cancelled:
            switch body {
            case .always, .alwaysTask:
                break
            default:
                derived.trySetState(.cancelled)
                return
            }
        case .pending:
            preconditionFailure("BoltsStyle: continuation run for a pending task")
        }
        if let trampoline = executor.inlineTrampoline() {
            trampoline.run { invoke(task, state) }
            return
        }
        completedTask = task
        executor.hop { self.invokeAfterHop() }  // one block, capturing only this object
    }

    /// Runs on the executor after a hop: takes the completed task back and invokes the closure.
    @usableFromInline
    func invokeAfterHop() {
        let task = completedTask!
        completedTask = nil
        invoke(task, task.currentState)
    }

    /// Runs the user's closure on the executor and completes `derived` with what it produced.
    @inlinable
    func invoke(_ task: BFTask<TResult>, _ state: BFTaskState<TResult>) {
        if let token, token.isCancellationRequested {
            derived.trySetState(.cancelled)
            return
        }
        let produced: BFTaskState<S>
        switch body {
        case .always(let continuation):
            produced = bfOutcome { try continuation(task) }
        case .alwaysTask(let continuation):
            follow(bfOutcome { try continuation(task) })
            return
        case .success(let continuation):
            guard case .success(let value) = state else { preconditionFailure("BoltsStyle: not a success") }
            produced = bfOutcome { try continuation(value) }
        case .successTask(let continuation):
            guard case .success(let value) = state else { preconditionFailure("BoltsStyle: not a success") }
            follow(bfOutcome { try continuation(value) })
            return
        case .error(let continuation, _):
            guard case .error(let error) = state else { preconditionFailure("BoltsStyle: not an error") }
            produced = continuation.outcome(for: error)
        case .errorTask(let continuation, _):
            guard case .error(let error) = state else { preconditionFailure("BoltsStyle: not an error") }
            follow(continuation.outcome(for: error))
            return
        }
        if let token, token.isCancellationRequested {
            derived.trySetState(.cancelled)
        } else {
            derived.trySetState(produced)
        }
    }

    /// Completes `derived` like the task the closure returned (flattening), or with its error.
    @inlinable
    func follow(_ produced: BFTaskState<BFTask<S>>) {
        // Locals, so that the callbacks below keep the derived task and the token alive, not this whole object.
        let derived = derived
        let token = token
        if let token, token.isCancellationRequested {
            derived.trySetState(.cancelled)
            return
        }
        switch produced {
        case .success(let next):
            // A token cancelled while `next` is pending cancels `derived` right away.
            let registration = token?.register { derived.trySetState(.cancelled) }
            next.addCallback { _, nextState in
                registration?.dispose()
                derived.trySetStateNotNesting(nextState)
            }
        case .error(let error):
            derived.trySetState(.error(error))
        case .cancelled:
            derived.trySetState(.cancelled)
        case .pending:
            preconditionFailure("BoltsStyle: a closure outcome is never pending")
        }
    }
}

extension BFTask {
    /// Completes this task through the `.immediate` executor, so that a long line of tasks each
    /// completing the next (followed tasks, `whenAll`) runs as a loop, not nested calls.
    @inlinable
    func trySetStateNotNesting(_ newState: BFTaskState<TResult>) {
        if let trampoline = BFExecutor.immediate.inlineTrampoline() {
            trampoline.run { trySetState(newState) }
        } else {
            BFTrampoline.current.enqueue { self.trySetState(newState) }
        }
    }
}

extension BFTask {
    /// Adds a continuation that runs when this task completes, whatever the outcome.
    ///
    /// The derived task completes with the value the continuation returns, faults with the error
    /// it throws, and is cancelled if it throws ``BFCancelledError``.
    ///
    /// - Parameters:
    ///   - executor: Where the continuation runs; ``BFExecutor/default`` by default.
    ///   - cancellationToken: If cancellation is requested before the continuation runs, it does
    ///     not run and the derived task is cancelled.
    ///   - continuation: Receives this (completed) task.
    /// - Returns: A task completed with the continuation's outcome.
    @inlinable
    @discardableResult
    public func continueWith<S>(
        _ executor: BFExecutor = .default,
        cancellationToken: BFCancellationToken? = nil,
        continuation: @escaping (BFTask<TResult>) throws -> S
    ) -> BFTask<S> {
        enqueueContinuation(executor, cancellationToken, .always(continuation))
    }

    /// Adds a continuation that runs when this task completes, whatever the outcome, and returns a
    /// task; the derived task completes like that task (result, error or cancellation).
    ///
    /// - Parameters:
    ///   - executor: Where the continuation runs; ``BFExecutor/default`` by default.
    ///   - cancellationToken: If cancellation is requested before the continuation runs, it does
    ///     not run and the derived task is cancelled; if it is requested while the returned task
    ///     is pending, the derived task is cancelled.
    ///   - continuation: Receives this (completed) task and returns the task to follow.
    /// - Returns: A task that completes like the task the continuation returns.
    @inlinable
    @discardableResult
    public func continueWithTask<S>(
        _ executor: BFExecutor = .default,
        cancellationToken: BFCancellationToken? = nil,
        continuation: @escaping (BFTask<TResult>) throws -> BFTask<S>
    ) -> BFTask<S> {
        enqueueContinuation(executor, cancellationToken, .alwaysTask(continuation))
    }
}
