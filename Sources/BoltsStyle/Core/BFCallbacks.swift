// BFCallbacks.swift: the list of callbacks waiting for a task's outcome (the state machine's `list`), stored lean.
//
// Most tasks get one continuation, so the list starts as `.none`, holds the first callback as is (`.one`, no array
// allocated) and becomes a real array only from the second callback on. A thread blocked in `waitUntilCompleted` or
// awaiting `async()` is just one more callback. Every payload is a closure or an array of closures, whose layout
// does not depend on `TResult`, so the task's unspecialized `deinit` destroys the list without generic metadata.

/// A callback run once, when a task completes. It receives the task and its final state as arguments instead of
/// capturing the task, so a pending task never retains itself through its callbacks, and a callback need not take
/// the lock again to learn the outcome.
@usableFromInline
typealias BFCallback<TResult> = (BFTask<TResult>, BFTaskState<TResult>) -> Void

/// A task's callbacks, in the order they were added: none, one (no array allocated), or many.
@usableFromInline
enum BFCallbacks<TResult> {
    case none
    case one(BFCallback<TResult>)
    case many([BFCallback<TResult>])

    /// Adds `callback` after the others.
    @inlinable
    mutating func append(_ callback: @escaping BFCallback<TResult>) {
        switch self {
        case .none:
            self = .one(callback)
        case .one(let first):
            self = .many([first, callback])
        case .many(var all):
            self = .none  // keep the array uniquely referenced while appending
            all.append(callback)
            self = .many(all)
        }
    }

    /// Runs each callback but the last, in order, with `task` and its final `state`, and returns the last one (nil if
    /// there is none).
    @inlinable
    func runAllButLast(_ task: BFTask<TResult>, _ state: BFTaskState<TResult>) -> BFCallback<TResult>? {
        switch self {
        case .none:
            return nil
        case .one(let callback):
            return callback
        case .many(let all):
            for callback in all.dropLast() { callback(task, state) }
            return all.last
        }
    }
}
