// BFContinuation.swift: the handler of BoltsStyle, what runs a `continue…` closure and completes the derived task.
//
// Every `continue…` method goes through `enqueueContinuation`, which creates one `BFContinuation` and adds exactly one
// callback to the task (BFTask.swift, `addCallback`). When the task completes, the callback checks the cancellation
// token, passes through outcomes the continuation does not handle, and otherwise runs the user's closure on the
// executor (BFExecutor.swift): inline on the thread's trampoline, or after a hop. A closure that returns a task is
// followed until that task completes. Either way the derived task is settled through `trySetState` (BFTask.swift).

import Dispatch
import PromisePlumbing

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
    ///
    /// An outcome this continuation does not handle, and a cancelled token, settle `derived` without running `body`
    /// and without the executor. They settle it through ``BFTask/trySetStateNotNesting(_:)``, one inline run deeper
    /// on the thread's trampoline, as a handled outcome is: a line of tasks each passing its outcome to the next
    /// (a faulted root under a million `continueOnSuccessWith` links) then counts toward `.immediate`'s depth limit
    /// and runs as a loop, instead of one nested drain per link.
    @inlinable
    func run(after task: BFTask<TResult>, _ state: BFTaskState<TResult>) {
        if let token, token.isCancellationRequested {
            derived.trySetStateNotNesting(.cancelled)
            return
        }
        if let passedThrough = passThrough(state) {
            derived.trySetStateNotNesting(passedThrough)
            return
        }
        if let trampoline = executor.inlineTrampoline() {
            trampoline.run { invoke(task, state) }
            return
        }
        completedTask = task
        executor.hop { self.invokeAfterHop() }  // one block, capturing only this object
    }

    /// The state `derived` takes when `body` does not handle `state`, or nil when it does: a success passes through
    /// the error continuations, an error through the success continuations, a cancellation through every kind but
    /// `continueWith` and `continueWithTask`.
    @inlinable
    func passThrough(_ state: BFTaskState<TResult>) -> BFTaskState<S>? {
        switch (state, body) {
        case (.success(let value), .error(_, let resultIsS)), (.success(let value), .errorTask(_, let resultIsS)):
            return .success(resultIsS(value))
        case (.error(let error), .success), (.error(let error), .successTask):
            return .error(error)
        case (.cancelled, .always), (.cancelled, .alwaysTask), (.success, _), (.error, _):
            return nil
        case (.cancelled, _):
            return .cancelled
        case (.pending, _):
            preconditionFailure("BoltsStyle: continuation run for a pending task")
        }
    }

    /// Runs on the executor after a hop: takes the completed task back and invokes the closure, as one inline run on
    /// the thread's trampoline. An executor that calls the block before `hop` returns (`.closure`, or an
    /// `.escapingClosure` that calls it at once) would otherwise nest one hop per link uncounted.
    ///
    /// `@inlinable`, so that a client specializes it with `invoke`: kept opaque, the body's closure left every hop
    /// running the continuation unspecialized, looking up generic metadata at each step.
    @inlinable
    func invokeAfterHop() {
        let task = completedTask!
        completedTask = nil
        BFTrampoline.current.run { invoke(task, task.currentState) }
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
            // A token cancelled while `next` is pending cancels `derived` right away. (The observer crosses to the
            // cancelling thread; `derived`'s lock orders the access, whatever its result type.)
            let cancellable = UncheckedSendable(derived)
            let registration = token?.register { cancellable.value.trySetState(.cancelled) }
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
    /// Completes this task through the `.immediate` executor, so that a long line of tasks each completing the next
    /// without a handler of their own (outcomes passed through, cancelled tokens, followed tasks, `whenAll`) runs as
    /// a loop, not nested calls: below `.immediate`'s depth limit it settles one inline run deeper, past it the
    /// settling waits on the thread's trampoline for the outermost inline run.
    @inlinable
    func trySetStateNotNesting(_ newState: BFTaskState<TResult>) {
        if let trampoline = BFExecutor.immediate.inlineTrampoline() {
            trampoline.run { trySetState(newState) }
        } else {
            BFTrampoline.current.enqueue { self.trySetState(newState) }
        }
    }
}
