// BFTask: the core of the Bolts style.
//
// The mechanism: each task holds its state and an array of callbacks under one lock. Adding a continuation
// appends one callback. Completing sets the state and swaps the array out under the lock, then runs each
// callback outside the lock; a continuation's callback runs the user's closure on that continuation's
// executor (inline, or by handing it to the executor). Everything else (continuations, whenAll, delays,
// async) is built by adding one callback to a task.
//
// Invariants:
// - The state changes once: `trySetState` stores a completed state only while the tag is `.pending`, under
//   the lock, and nothing writes the state after that. Of racing completions exactly one returns `true`.
// - Every callback runs exactly once. Under the lock it either joins the array, from which exactly one drain
//   swaps it out (the swap leaves the array empty), or, once the task has completed and the array has been
//   drained, is run at once by the thread that added it. It receives the final state as an argument.
// - Callbacks run in the order they were added. Until the completing thread has run the whole array the task
//   is `draining`, and a callback added meanwhile (from a callback, or from another thread) joins a fresh
//   array that the completing thread swaps out and runs next, instead of overtaking the callbacks before it
//   (Promises/A+ 2.2.6).
// - Each continuation's closure runs on its executor, or not at all when its token was cancelled first or
//   the outcome is one it does not handle (that outcome passes straight to the derived task).
// - Read and written only under the lock: `tag`, `failure`, `storage` (together, the state), `callbacks`,
//   `hasCallbacks`, `draining` and `asyncOperation`. The exceptions are the initializers, before the task is
//   shared, and `deinit`, when nothing else refers to it. No callback runs under the lock, so a callback may
//   add continuations or complete other tasks.
//
// Details:
// - The lock is a `BFLock` (see `BFLock.swift` for why each platform gets its own). On Apple platforms it is an
//   `os_unfair_lock`, which donates the waiter's priority to the owner, allocated once so that it never moves: a
//   task is two allocations there. On Linux it is one atomic word stored inline in the object, which the thread
//   sanitizer understands: a task is one allocation. CI, on Linux, builds and tests the Apple branch only against a
//   stand-in `os_unfair_lock` (trait DarwinStandIns; see `BFLock.swift`).
// - The "array" is `Callbacks`: no callback, one callback stored as is, or a real array from the
//   second callback on. A waiter adds a callback that signals a semaphore, so nothing else is
//   allocated unless somebody blocks in `waitUntilCompleted`.
// - A callback receives the completed task and its final state as arguments instead of capturing
//   the task, so a pending task never retains itself through its own callbacks, and the callback
//   need not take the lock again to learn the outcome.
// - The state is stored as a tag, an optional error and raw words holding the result
//   (`BFResultStorage`), so the unspecialized `deinit` needs no generic enum metadata.
// - Stack depth: executors count inline nesting per thread (see `BFThreadLocal`); `.immediate`
//   parks deep work on a per-thread trampoline and `.default` hops to a global queue; a task
//   completed past `.immediate`'s depth limit parks itself there, so each step of a 1,000,000-step
//   chain allocates only the derived task and its `BFContinuation`. A pending
//   chain that is dropped is released iteratively by `deinit`, never recursively.
// - The hot paths are `@inlinable` so that client code gets them specialized for its `TResult`;
//   unspecialized generic code would spend most of its time looking up generic metadata.
//   The fields touched under the lock are `@exclusivity(unchecked)`: the lock already guarantees
//   exclusive access, so the dynamic check would only repeat it.
//
// Concurrency policy: as in Bolts, user closures are plain `@escaping` closures (not `@Sendable`)
// and results are unconstrained `TResult`, so closures and results written for Bolts need not be
// `Sendable` in Swift 6 mode. `BFTask` is `@unchecked Sendable` because of the lock invariant above:
// closures and results cross threads only through this lock.

/// The state of a ``BFTask``: pending, or one of the three completed outcomes.
@usableFromInline
enum BFTaskState<TResult> {
    case pending
    case success(TResult)
    case error(any Error)
    case cancelled
}

/// Which case of ``BFTaskState`` a task is in; how a task stores its state (see `BFResultStorage`).
@usableFromInline
enum BFTaskStateTag: UInt8 {
    case pending, success, error, cancelled
}

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

    /// A callback run once when the task completes; it receives the task and its final state.
    @usableFromInline
    typealias Callback = (BFTask<TResult>, BFTaskState<TResult>) -> Void

    /// The pending callbacks: none, one (no array allocated), or many.
    @usableFromInline
    enum Callbacks {
        case none
        case one(Callback)
        case many([Callback])
    }

    @usableFromInline let lock = BFLock()
    /// Which outcome the task holds. With `failure` and `storage` it makes up the state (see `state`).
    @exclusivity(unchecked) @usableFromInline var tag = BFTaskStateTag.pending
    /// The error of a faulted task.
    @exclusivity(unchecked) @usableFromInline var failure: (any Error)?
    /// The result of a succeeded task, stored inline as raw words (see `BFResultStorage`).
    @exclusivity(unchecked) @usableFromInline var storage = BFResultStorage()
    @exclusivity(unchecked) @usableFromInline var callbacks: Callbacks = .none
    /// Whether `callbacks` holds any; lets the unspecialized `deinit` skip generic work.
    @exclusivity(unchecked) @usableFromInline var hasCallbacks = false
    /// Whether the completing thread is still running callbacks; new ones then join `callbacks`.
    @exclusivity(unchecked) @usableFromInline var draining = false
    /// The Swift `Task` settling this task when it was created from an `async` closure.
    @usableFromInline var asyncOperation: Task<Void, Never>?

    /// Creates a pending task (completed later through ``trySetState(_:)``).
    @inlinable
    init() {}

    /// Creates a task that is already in `state`.
    @inlinable
    init(state: BFTaskState<TResult>) {
        store(state)
    }

    /// Creates a task that has already succeeded with `result`.
    ///
    /// Disfavoured so that a closure is never taken for the result: `BFTask { "x" }` means ``init(_:closure:)``
    /// and `BFTask { try await load() }` means ``init(priority:operation:)``.
    @inlinable @_disfavoredOverload
    public init(_ result: TResult) {
        store(.success(result))
    }

    /// Creates a task that has already faulted with `error`.
    @inlinable
    public init(error: any Error) {
        store(.error(error))
    }

    /// Returns a task that is already cancelled.
    @inlinable
    public static func cancelledTask() -> BFTask<TResult> {
        BFTask(state: .cancelled)
    }

    deinit {
        // Only `TResult`'s own value witness is needed here (read from this class's metadata),
        // never the metadata of a generic enum wrapping it: see `BFResultStorage`.
        if tag == .success {
            withUnsafeMutablePointer(to: &storage) { BFResultStorage.destroy($0, as: TResult.self) }
        }
        // A pending task dropped with callbacks would release a whole chain recursively;
        // hand the callbacks to the per-thread releaser, which frees them one by one.
        guard hasCallbacks else { return }
        let dropped = callbacks
        callbacks = .none
        BFThreadLocal.release(consume dropped)
    }

    // MARK: State

    /// The state, assembled from `tag`, `failure` and `storage`. Read it under the lock.
    @inlinable
    var state: BFTaskState<TResult> {
        switch tag {
        case .pending:
            return .pending
        case .success:
            return .success(withUnsafeMutablePointer(to: &storage) { BFResultStorage.load($0, as: TResult.self) })
        case .error:
            return .error(failure!)
        case .cancelled:
            return .cancelled
        }
    }

    /// Stores the final state of a pending task (once: under the lock, or in an initializer).
    @inlinable
    func store(_ newState: BFTaskState<TResult>) {
        switch newState {
        case .pending:
            return
        case .success(let value):
            withUnsafeMutablePointer(to: &storage) { BFResultStorage.initialize($0, to: value) }
            tag = .success
        case .error(let error):
            failure = error
            tag = .error
        case .cancelled:
            tag = .cancelled
        }
    }

    /// A snapshot of the current state.
    @inlinable
    var currentState: BFTaskState<TResult> {
        lock.withLock { state }
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

    // MARK: The mechanism

    /// Completes the task with `newState` unless it already completed. Returns whether this call won.
    ///
    /// The winner swaps the callbacks out under the lock and runs them outside it, in the order
    /// they were added; callbacks added while it runs them are swapped out and run next. On a
    /// thread already running `.immediate`'s limit of nested continuations, the winner instead
    /// parks the task itself on the trampoline, which runs the callbacks once the outermost
    /// continuation returns (a closure capturing only the task: nothing is allocated).
    @inlinable
    @discardableResult
    func trySetState(_ newState: BFTaskState<TResult>) -> Bool {
        var toRun: Callbacks = .none
        let local = BFThreadLocal.current
        let deep = local.pointee.depth >= BFThreadLocal.immediateDepthLimit
        var park = false
        let won = lock.withLock { () -> Bool in
            guard tag == .pending else { return false }
            store(newState)
            if hasCallbacks {
                draining = true
                park = deep
                if !park {
                    swap(&toRun, &callbacks)
                    hasCallbacks = false
                }
            }
            return true
        }
        guard won else { return false }
        if park {
            BFThreadLocal.park(local) { self.runDrain() }
            return true
        }
        runCallbacks(toRun, newState)
        return true
    }

    /// Runs `toRun` with the final state, then the callbacks added meanwhile, until none is left.
    @inlinable
    func runCallbacks(_ first: consuming Callbacks, _ finalState: BFTaskState<TResult>) {
        var toRun = first
        while true {
            switch toRun {
            case .none:
                return
            case .one(let callback):
                callback(self, finalState)
            case .many(let all):
                for callback in all { callback(self, finalState) }
            }
            toRun = lock.withLock { () -> Callbacks in
                guard hasCallbacks else {
                    draining = false
                    return .none
                }
                var added: Callbacks = .none
                swap(&added, &callbacks)
                hasCallbacks = false
                return added
            }
        }
    }

    /// Runs the callbacks of a completed task whose drain was parked on the trampoline.
    @usableFromInline
    func runDrain() {
        var toRun: Callbacks = .none
        let finalState = lock.withLock { () -> BFTaskState<TResult> in
            swap(&toRun, &callbacks)
            hasCallbacks = false
            return state
        }
        runCallbacks(toRun, finalState)
    }

    /// Adds `callback`, or runs it right away on this thread if the task has already completed
    /// (and the completing thread is done running the callbacks added before).
    @inlinable
    func addCallback(_ callback: @escaping Callback) {
        var completedState: BFTaskState<TResult> = .pending
        lock.withLock {
            guard tag == .pending || draining else {
                completedState = state
                return
            }
            switch callbacks {
            case .none:
                callbacks = .one(callback)
            case .one(let first):
                callbacks = .many([first, callback])
            case .many(var all):
                callbacks = .none  // keep the array uniquely referenced while appending
                all.append(callback)
                callbacks = .many(all)
            }
            hasCallbacks = true
        }
        if case .pending = completedState { return }
        callback(self, completedState)
    }

    /// Remembers the Swift `Task` that settles this task, so `async()` can forward cancellation.
    func attach(asyncOperation operation: Task<Void, Never>) {
        lock.withLock { asyncOperation = operation }
    }

    /// The Swift `Task` that settles this task, if it was created from an `async` closure.
    var attachedAsyncOperation: Task<Void, Never>? {
        lock.withLock { asyncOperation }
    }
}

extension BFTask: CustomStringConvertible, CustomDebugStringConvertible {
    /// A textual representation of the task and its state, in Bolts-Swift's format with this package's type name:
    /// `BFTask: pending`, `BFTask: success(42)`, `BFTask: error(…)` or `BFTask: cancelled` (the outcome printed as
    /// Swift prints an enum case with its payload).
    public var description: String {
        switch currentState {
        case .pending:
            return "BFTask: pending"
        case .success(let value):
            return "BFTask: success(\(String(reflecting: value)))"
        case .error(let error):
            return "BFTask: error(\(String(reflecting: error)))"
        case .cancelled:
            return "BFTask: cancelled"
        }
    }

    /// The same as ``description``, as in Bolts-Swift.
    public var debugDescription: String {
        description
    }
}
