// BFStateStorage.swift: where a task keeps its outcome (the state machine's `outcome`): a tag, an error, raw words.
//
// Why not a stored `BFTaskState<TResult>` (or `TResult?`)? A task is freed by its class's `deinit`, which is not
// specialized for `TResult`: it is one function for every task type. To destroy a field whose type is a generic enum
// wrapping `TResult` it first looks up that enum's metadata in the runtime's cache, a costly lookup for every task
// freed (Benchmarks/NOTES.md has the count). `TResult`'s own metadata, on the other hand, sits in the task's class
// metadata. So the task stores its state in this struct, whose layout does not depend on `TResult`, and `deinit`
// destroys the result with `TResult`'s value witness alone. A result that does not fit in the words (more than four
// words, or aligned more strictly than a word) is kept in its own allocation and the words hold the pointer to it.
//
// The state machine owns it: the task reads and writes it only under its lock, before it is shared, or in `deinit`.

/// A task's state: which case of ``BFTaskState`` it is in, the error of a faulted task, and four words holding the
/// result of a succeeded one (or a pointer to it, when it does not fit).
@usableFromInline
struct BFStateStorage {
    /// Which case of ``BFTaskState`` is stored.
    @usableFromInline
    enum Tag: UInt8 {
        case pending, success, error, cancelled
    }

    /// Four words: room for most results (an `Int`, a `String`, an `Array`, an `Any`) without an allocation.
    @usableFromInline typealias Words = (UInt, UInt, UInt, UInt)

    @usableFromInline var tag = Tag.pending
    /// The error of a faulted task.
    @usableFromInline var failure: (any Error)?
    /// The result of a succeeded task, or the address of its allocation.
    @usableFromInline var words: Words = (0, 0, 0, 0)

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
            storeResult(value)
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
            return .success(withUnsafeMutablePointer(to: &words) { BFStateStorage.address(of: $0, as: T.self) }.pointee)
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
        withUnsafeMutablePointer(to: &words) { BFStateStorage.destroy(at: $0, as: T.self) }
    }

    /// Stores `value` in the empty words, or in an allocation whose address the words hold.
    @inlinable
    mutating func storeResult<T>(_ value: T) {
        withUnsafeMutablePointer(to: &words) { words in
            let raw = UnsafeMutableRawPointer(words)
            if BFStateStorage.fitsInline(T.self) {
                raw.initializeMemory(as: T.self, to: value)
            } else {
                let boxed = UnsafeMutablePointer<T>.allocate(capacity: 1)
                boxed.initialize(to: value)
                raw.storeBytes(of: boxed, as: UnsafeMutablePointer<T>.self)
            }
        }
    }

    /// Whether a `T` is stored in the words themselves rather than behind a pointer.
    @inlinable
    static func fitsInline<T>(_: T.Type) -> Bool {
        MemoryLayout<T>.size <= MemoryLayout<Words>.size && MemoryLayout<T>.alignment <= MemoryLayout<Words>.alignment
    }

    /// Destroys the `T` kept in `words` (and frees its allocation if it did not fit).
    @inlinable
    static func destroy<T>(at words: UnsafeMutablePointer<Words>, as _: T.Type) {
        let value = address(of: words, as: T.self)
        value.deinitialize(count: 1)
        if !fitsInline(T.self) { value.deallocate() }
    }

    /// The address of the `T` kept in `words`.
    @inlinable
    static func address<T>(of words: UnsafeMutablePointer<Words>, as _: T.Type) -> UnsafeMutablePointer<T> {
        let raw = UnsafeMutableRawPointer(words)
        if fitsInline(T.self) { return raw.assumingMemoryBound(to: T.self) }
        return raw.load(as: UnsafeMutablePointer<T>.self)
    }
}
