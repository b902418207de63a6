// BFStateStorage.swift: where a task keeps its outcome (the state machine's `outcome`): a tag, an error, and the
// result in raw words (`RawStorage`, PromisePlumbing).
//
// Why not a stored `BFTaskState<TResult>` (or `TResult?`)? A task is freed by its class's `deinit`, which is not
// specialized for `TResult`: it is one function for every task type. To destroy a field whose type is a generic enum
// wrapping `TResult` it first looks up that enum's metadata in the runtime's cache, a costly lookup for every task
// freed (Benchmarks/NOTES.md has the count). So the task stores its state in this struct, whose layout does not depend
// on `TResult`, and `deinit` destroys the result with `TResult`'s value witness alone (RawStorage.swift).
//
// The state machine owns it: the task reads and writes it only under its lock, before it is shared, or in `deinit`.

import PromisePlumbing

/// A task's state: which case of ``BFTaskState`` it is in, the error of a faulted task, and the result of a succeeded
/// one in raw words.
@usableFromInline
struct BFStateStorage {
    /// Which case of ``BFTaskState`` is stored.
    @usableFromInline
    enum Tag: UInt8 {
        case pending, success, error, cancelled
    }

    @usableFromInline var tag = Tag.pending
    /// The error of a faulted task.
    @usableFromInline var failure: (any Error)?
    /// The result of a succeeded task (`tag == .success`).
    @usableFromInline var result = RawStorage()

    @inlinable
    init() {}

    /// Whether no state has been stored yet.
    @inlinable
    var isPending: Bool { tag == .pending }

    /// Stores the final state of a pending task. Storing `.pending` changes nothing.
    @inlinable
    mutating func store<T>(_ state: BFTaskState<T>) {
        switch state {
        case .pending:
            return
        case .success(let value):
            result.store(value)
            tag = .success
        case .error(let error):
            failure = error
            tag = .error
        case .cancelled:
            tag = .cancelled
        }
    }

    /// The stored state; `T` is the task's `TResult`. (Mutating only to take the words' address.)
    @inlinable
    mutating func read<T>(as _: T.Type) -> BFTaskState<T> {
        switch tag {
        case .pending:
            return .pending
        case .success:
            return .success(result.load(as: T.self))
        case .error:
            return .error(failure!)
        case .cancelled:
            return .cancelled
        }
    }

    /// Destroys the stored result, if any (and frees its allocation if it did not fit). Called once, by `deinit`.
    @inlinable @inline(__always)
    mutating func destroyResult<T>(as _: T.Type) {
        guard tag == .success else { return }
        result.destroy(as: T.self)
    }
}
