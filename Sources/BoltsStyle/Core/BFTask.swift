// BFTask.swift: the Bolts style's task: one lock, and a state machine (BFTaskStateMachine.swift) it guards.
//
// Each method below takes the lock, calls one transition of `machine`, and performs the action the transition returns
// after unlocking: callbacks never run under the lock, so one may add continuations or complete other tasks. All else
// (continuations, whenAll, delays, async) adds a callback to a task (`addCallback`) or settles one (`trySetState`).
//
// The measured optimisations, each behind its name: `Lock` (PromisePlumbing: one atomic word inline in the task on
// Linux, so a task is one allocation), `BFStateStorage` (the outcome as a tag, an error and raw words, so the unspecialized `deinit`
// needs no generic metadata), `BFCallbacks` (no array before the second callback) and `BFTrampoline` (a task settled
// past `.immediate`'s depth limit enqueues its drain there; a dropped pending chain is released one task at a time).
// The hot paths are `@inlinable`, so clients get them specialized for their `TResult`; the fields the lock guards are
// `@exclusivity(unchecked)`, the lock already guaranteeing the exclusive access the dynamic check would verify.
//
// Concurrency: as in Bolts, user closures are plain `@escaping` closures (not `@Sendable`) and results are
// unconstrained, so code written for Bolts need not be `Sendable` in Swift 6 mode. `BFTask` is `@unchecked Sendable`:
// `machine` and `asyncOperation` are touched only under the lock, except before the task is shared (initializers) and
// when nothing refers to it any more (`deinit`), so closures and results cross threads only through the lock. Under
// the trait CheckedHandlers the closures are `@Sendable` (BFContinuationBlock.swift) and `BFTask` is `Sendable` only
// where `TResult` is: a task shared between threads shares its result.

import PromisePlumbing

/// A task: the consumer side of an asynchronous operation that completes exactly once with a
/// result, an error or cancellation.
///
/// Inspect it with ``completed``, ``faulted``, ``cancelled``, ``result`` and ``error``; chain work
/// with the `continue…` methods; complete it through a ``BFTaskCompletionSource``.
public final class BFTask<TResult> {
    /// A closure run once, when a task completes: the type of Bolts-Swift's `Task.Continuation`.
    ///
    /// BoltsStyle's own callbacks also receive the task and its final state; this alias is kept so that code
    /// written against Bolts-Swift that names the type still compiles.
    public typealias Continuation = () -> Void

    @usableFromInline let lock = Lock()
    /// The phase (pending, draining, completed) with the waiting callbacks, and the outcome.
    @exclusivity(unchecked) @usableFromInline var machine: BFTaskStateMachine<TResult>
    /// The Swift `Task` settling this task when it was created from an `async` closure, for `async()` to cancel. Not
    /// part of the machine: it takes no part in settling or draining.
    @usableFromInline var asyncOperation: Task<Void, Never>?

    // MARK: The mechanism

    /// Settles the task with `newState` unless it already settled. Returns whether this call won.
    ///
    /// Specialized for clients but kept out of line: inlined, it grew its callers past what the optimizer inlines in
    /// turn (Benchmarks/NOTES.md, "BoltsStyle's state machine").
    @inlinable @inline(never)
    @discardableResult
    func trySetState(_ newState: BFTaskState<TResult>) -> Bool {
        let trampoline = BFTrampoline.current
        let deep = trampoline.isAt(limit: BFTrampoline.immediateDepthLimit)
        switch lock.withLock({ machine.settle(newState, on: trampoline.token, deep: deep) }) {
        case .alreadySettled:
            return false
        case .settledWithoutWaiters:
            return true
        case .drain(let batch):
            drain(batch, newState)
        case .enqueueDrain:
            trampoline.enqueue { self.resumeDrain() }  // captures only the task: allocates nothing more
        }
        return true
    }

    /// Adds `callback`: it waits for the outcome, or runs at once on this thread (see `RegisterAction`).
    @inlinable
    func addCallback(_ callback: @escaping BFCallback<TResult>) {
        switch lock.withLock({ machine.register(callback, on: BFTrampoline.current.token) }) {
        case .wait:
            return
        case .runNow(let state), .runNowOnDrainer(let state):
            callback(self, state)
        }
    }

    /// Runs `batch` with the final `state`, then each batch registered meanwhile; stops by Bolts' rule
    /// (`beforeLastCallback`).
    @inlinable
    func drain(_ batch: consuming BFCallbacks<TResult>, _ state: BFTaskState<TResult>) {
        var toRun = batch
        while let last = toRun.runAllButLast(self, state) {
            switch lock.withLock({ machine.beforeLastCallback() }) {
            case .drainNext(let next):
                toRun = next
                last(self, state)
            case .stopDraining:
                last(self, state)
                return
            }
        }
    }

    /// Runs the drain that `trySetState` enqueued on the trampoline, settled too deep.
    @usableFromInline
    func resumeDrain() {
        let token = BFTrampoline.current.token
        let (batch, state) = lock.withLock { machine.resumeDrain(on: token) }
        drain(batch, state)
    }

    // MARK: Creating and freeing

    /// Creates a pending task (completed later through ``trySetState(_:)``).
    @inlinable
    init() {
        machine = BFTaskStateMachine()
    }

    /// Creates a task that has already completed with `state`.
    @inlinable
    init(state: BFTaskState<TResult>) {
        machine = BFTaskStateMachine(completedWith: state)
    }

    /// Creates a task that has already succeeded with `result`.
    ///
    /// Disfavoured so that a closure is never taken for the result: `BFTask { "x" }` means ``init(_:closure:)``
    /// and `BFTask { try await load() }` means ``init(priority:operation:)``.
    @inlinable @_disfavoredOverload
    public init(_ result: TResult) {
        machine = BFTaskStateMachine(completedWith: .success(result))
    }

    /// Creates a task that has already faulted with `error`.
    @inlinable
    public init(error: any Error) {
        machine = BFTaskStateMachine(completedWith: .error(error))
    }

    /// Returns a task that is already cancelled.
    @inlinable
    public static func cancelledTask() -> BFTask<TResult> {
        BFTask(state: .cancelled)
    }

    deinit {
        // Only `TResult`'s own value witness is needed here (read from this class's metadata), never the metadata
        // of a generic enum wrapping it: see `BFStateStorage`.
        machine.outcome.destroyResult(as: TResult.self)
        // A pending task dropped with callbacks would release a whole chain recursively; the trampoline releases
        // them one task at a time (`consume`: no other reference may outlive that release).
        guard let callbacks = machine.takeForRelease() else { return }
        BFTrampoline.current.release(consume callbacks)
    }

    // MARK: State

    /// A snapshot of the current state.
    @inlinable
    var currentState: BFTaskState<TResult> {
        lock.withLock { machine.currentState() }
    }

    /// Whether the task has completed: succeeded, faulted or cancelled.
    @inlinable
    public var completed: Bool {
        if case .pending = currentState { return false }
        return true
    }

    /// Whether the task completed with an error. A faulted task is also completed.
    @inlinable
    public var faulted: Bool {
        if case .error = currentState { return true }
        return false
    }

    /// Whether the task was cancelled. A cancelled task is also completed.
    @inlinable
    public var cancelled: Bool {
        if case .cancelled = currentState { return true }
        return false
    }

    /// The result of a task that succeeded; `nil` while pending, or when it faulted or was cancelled.
    @inlinable
    public var result: TResult? {
        if case .success(let value) = currentState { return value }
        return nil
    }

    /// The error of a faulted task; `nil` otherwise.
    @inlinable
    public var error: (any Error)? {
        if case .error(let error) = currentState { return error }
        return nil
    }
}

#if CheckedHandlers
    extension BFTask: @unchecked Sendable where TResult: Sendable {}
#else
    extension BFTask: @unchecked Sendable {}
#endif
