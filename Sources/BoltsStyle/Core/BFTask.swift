// BFTask.swift: the core of the Bolts style, a state and an array of callbacks under one lock.
//
// Adding a continuation appends one callback. Completing takes the lock, stores the state, swaps the array out and
// unlocks, then runs each callback; a continuation's callback runs the user's closure on that continuation's executor
// (inline, or handed to the executor). Everything else (continuations, whenAll, delays, async) is built by adding one
// callback to a task.
//
// Invariants:
// 1. The state changes once: `trySetState` stores a completed state only while the task is pending, under the lock,
//    and nothing writes the state after that. Of racing completions exactly one returns `true`.
// 2. Every callback runs exactly once. Under the lock it either joins the array, from which exactly one drain swaps
//    it out (the swap leaves the array empty), or, once the task has completed and the array has been drained, is
//    run at once by the thread that added it. It receives the final state as an argument.
// 3. Callbacks run in the order they were added. Until the completing thread starts the last callback of the array
//    (having found no other added since), the task is `draining`, and a callback another thread adds meanwhile joins
//    a fresh array that the completing thread swaps out and runs next, instead of overtaking the callbacks before it
//    (Promises/A+ 2.2.6). One the completing thread adds itself while it drains (a continuation that returns this
//    task, say) runs at once, nested, as in Bolts-Swift, which reads the completed state; no other thread could run
//    it sooner.
// 4. Each continuation's closure runs on its executor, or not at all when its token was cancelled first or the
//    outcome is one it does not handle (that outcome passes straight to the derived task).
// 5. `state`, `callbacks`, `hasCallbacks`, `draining` and `asyncOperation` are read and written only under the lock,
//    except in the initializers, before the task is shared, and in `deinit`, when nothing else refers to it. No
//    callback runs under the lock, so a callback may add continuations or complete other tasks.
//
// Where the measured optimisations live, each behind its name: `BFLock` (one atomic word inline in the task on Linux,
// so a task is one allocation), `BFStateStorage` (the state as a tag, an error and raw words, so that the
// unspecialized `deinit` needs no generic metadata), `BFCallbacks` (no array before the second callback) and
// `BFTrampoline` (a task completed past `.immediate`'s depth limit enqueues the running of its callbacks there, and a
// dropped pending chain is released one task at a time). The hot paths are `@inlinable`, so that clients get them
// specialized for their `TResult`, and the fields guarded by the lock are `@exclusivity(unchecked)`: the lock already
// guarantees the exclusive access that the dynamic check would verify again.
//
// Concurrency: as in Bolts, user closures are plain `@escaping` closures (not `@Sendable`) and results are
// unconstrained, so code written for Bolts need not be `Sendable` in Swift 6 mode. `BFTask` is `@unchecked Sendable`
// by invariant 5: closures and results cross threads only through the lock.

/// A task: the consumer side of an asynchronous operation that completes exactly once with a
/// result, an error or cancellation.
///
/// Inspect it with ``completed``, ``faulted``, ``cancelled``, ``result`` and ``error``; chain work
/// with the `continue…` methods; complete it through a ``BFTaskCompletionSource``.
public final class BFTask<TResult>: @unchecked Sendable {
    /// A closure run once, when a task completes: the type of Bolts-Swift's `Task.Continuation`.
    ///
    /// BoltsStyle's own callbacks also receive the task and its final state; this alias is kept so that code
    /// written against Bolts-Swift that names the type still compiles.
    public typealias Continuation = () -> Void

    @usableFromInline let lock = BFLock()
    /// Pending, or the outcome.
    @exclusivity(unchecked) @usableFromInline var state = BFStateStorage()
    /// The callbacks waiting for the outcome, in the order they were added.
    @exclusivity(unchecked) @usableFromInline var callbacks = BFCallbacks<TResult>.none
    /// Whether `callbacks` holds any; lets the unspecialized `deinit` skip generic work.
    @exclusivity(unchecked) @usableFromInline var hasCallbacks = false
    /// Whether the completing thread is still running callbacks; new ones then join `callbacks` (invariant 3).
    @exclusivity(unchecked) @usableFromInline var draining = false
    /// The trampoline of the thread running the callbacks while draining; nil while that run is enqueued.
    @exclusivity(unchecked) @usableFromInline var drainer: UnsafeMutableRawPointer?
    /// The Swift `Task` settling this task when it was created from an `async` closure.
    @usableFromInline var asyncOperation: Task<Void, Never>?

    // MARK: The mechanism

    /// Completes the task with `newState` unless it already completed. Returns whether this call won.
    ///
    /// The winner swaps the callbacks out under the lock and runs them outside it (`runCallbacks`). On a thread
    /// already running `.immediate`'s limit of nested continuations, it enqueues that run on the trampoline instead
    /// (a closure capturing only the task: nothing else is allocated), which runs it once the outermost continuation
    /// returns.
    @inlinable
    @discardableResult
    func trySetState(_ newState: BFTaskState<TResult>) -> Bool {
        let trampoline = BFTrampoline.current
        let deep = trampoline.depth >= BFTrampoline.immediateDepthLimit
        var toRun = BFCallbacks<TResult>.none
        var enqueue = false
        let won = lock.withLock { () -> Bool in
            guard state.isPending else { return false }
            state.store(newState)
            guard hasCallbacks else { return true }
            draining = true
            drainer = deep ? nil : UnsafeMutableRawPointer(trampoline.state)
            if deep { enqueue = true } else { toRun = takeCallbacks() }
            return true
        }
        guard won else { return false }
        if enqueue {
            trampoline.enqueue { self.runEnqueuedCallbacks() }
        } else {
            runCallbacks(toRun, newState)
        }
        return true
    }

    /// Runs `first` with the final state, then the callbacks added meanwhile, until none is left (invariant 3).
    ///
    /// Before the last callback of each batch it looks for callbacks added meanwhile: with none, the task stops
    /// draining there, so a callback added from then on runs at once on the thread that adds it, as in Bolts-Swift
    /// (none is left for it to overtake: the last one has started).
    @inlinable
    func runCallbacks(_ first: consuming BFCallbacks<TResult>, _ finalState: BFTaskState<TResult>) {
        var toRun = first
        while let last = toRun.runAllButLast(self, finalState) {
            toRun = lock.withLock { () -> BFCallbacks<TResult> in
                guard hasCallbacks else {
                    draining = false
                    return .none
                }
                return takeCallbacks()
            }
            last(self, finalState)
        }
    }

    /// Runs the callbacks of a task that `trySetState` completed too deep, from the trampoline.
    @usableFromInline
    func runEnqueuedCallbacks() {
        var toRun = BFCallbacks<TResult>.none
        let drainer = UnsafeMutableRawPointer(BFTrampoline.current.state)
        let finalState = lock.withLock { () -> BFTaskState<TResult> in
            self.drainer = drainer
            toRun = takeCallbacks()
            return state.read(as: TResult.self)
        }
        runCallbacks(toRun, finalState)
    }

    /// Adds `callback`, or runs it right away on this thread if the task has already completed
    /// (and the completing thread is done running the callbacks added before, or is this thread).
    @inlinable
    func addCallback(_ callback: @escaping BFCallback<TResult>) {
        var completedState: BFTaskState<TResult> = .pending
        lock.withLock {
            guard state.isPending || (draining && drainer != UnsafeMutableRawPointer(BFTrampoline.current.state))
            else {
                completedState = state.read(as: TResult.self)
                return
            }
            callbacks.append(callback)
            hasCallbacks = true
        }
        if case .pending = completedState { return }
        callback(self, completedState)
    }

    /// Swaps the callbacks out, leaving none behind. Call it under the lock.
    @inlinable
    func takeCallbacks() -> BFCallbacks<TResult> {
        hasCallbacks = false
        return callbacks.take()
    }

    // MARK: Creating and freeing

    /// Creates a pending task (completed later through ``trySetState(_:)``).
    @inlinable
    init() {}

    /// Creates a task that is already in `state`.
    @inlinable
    init(state: BFTaskState<TResult>) {
        self.state.store(state)
    }

    /// Creates a task that has already succeeded with `result`.
    ///
    /// Disfavoured so that a closure is never taken for the result: `BFTask { "x" }` means ``init(_:closure:)``
    /// and `BFTask { try await load() }` means ``init(priority:operation:)``.
    @inlinable @_disfavoredOverload
    public init(_ result: TResult) {
        state.store(.success(result))
    }

    /// Creates a task that has already faulted with `error`.
    @inlinable
    public init(error: any Error) {
        state.store(BFTaskState<TResult>.error(error))
    }

    /// Returns a task that is already cancelled.
    @inlinable
    public static func cancelledTask() -> BFTask<TResult> {
        BFTask(state: .cancelled)
    }

    deinit {
        // Only `TResult`'s own value witness is needed here (read from this class's metadata), never the metadata
        // of a generic enum wrapping it: see `BFStateStorage`.
        state.destroyResult(as: TResult.self)
        // A pending task dropped with callbacks would release a whole chain recursively; the trampoline releases
        // them one task at a time.
        guard hasCallbacks else { return }
        BFTrampoline.current.release(callbacks.take())
    }

    // MARK: State

    /// A snapshot of the current state.
    @inlinable
    var currentState: BFTaskState<TResult> {
        lock.withLock { state.read(as: TResult.self) }
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
