// Where a task keeps its result: raw words inside the task object.
//
// Why not a stored `BFTaskState<TResult>` (or `TResult?`)? A task is freed by its class's `deinit`, which
// is not specialized for `TResult`: it is one function for every task type. To destroy a field whose type
// is a generic enum wrapping `TResult` it first looks up that enum's metadata in the runtime's cache, a
// costly lookup for every task freed (Benchmarks/NOTES.md has the count). `TResult`'s own metadata, on the
// other hand, sits in the task's class metadata. So the task stores its state as a tag, an optional error and
// these words, whose layout does not depend on `TResult`, and `deinit` destroys the result with `TResult`'s
// value witness alone. A result that does not fit (more than four words, or aligned more
// strictly than a word) is kept in its own allocation and the words hold the pointer to it.

/// Four words of raw storage for a task's result (or a pointer to it, when it does not fit).
@usableFromInline
struct BFResultStorage {
    @usableFromInline var words: (UInt, UInt, UInt, UInt) = (0, 0, 0, 0)

    @inlinable
    init() {}

    /// Whether a `T` is stored in the words themselves rather than behind a pointer.
    @inlinable
    static func fitsInline<T>(_: T.Type) -> Bool {
        MemoryLayout<T>.size <= MemoryLayout<BFResultStorage>.size
            && MemoryLayout<T>.alignment <= MemoryLayout<BFResultStorage>.alignment
    }

    /// The address of the `T` stored in `storage`.
    @inlinable
    static func address<T>(_ storage: UnsafeMutablePointer<BFResultStorage>, as _: T.Type) -> UnsafeMutablePointer<T> {
        let raw = UnsafeMutableRawPointer(storage)
        if fitsInline(T.self) { return raw.assumingMemoryBound(to: T.self) }
        return raw.load(as: UnsafeMutablePointer<T>.self)
    }

    /// Stores `value` in the empty `storage`.
    @inlinable
    static func initialize<T>(_ storage: UnsafeMutablePointer<BFResultStorage>, to value: T) {
        let raw = UnsafeMutableRawPointer(storage)
        if fitsInline(T.self) {
            raw.initializeMemory(as: T.self, to: value)
        } else {
            let boxed = UnsafeMutablePointer<T>.allocate(capacity: 1)
            boxed.initialize(to: value)
            raw.storeBytes(of: boxed, as: UnsafeMutablePointer<T>.self)
        }
    }

    /// A copy of the `T` stored in `storage`.
    @inlinable
    static func load<T>(_ storage: UnsafeMutablePointer<BFResultStorage>, as _: T.Type) -> T {
        address(storage, as: T.self).pointee
    }

    /// Destroys the `T` stored in `storage` (and frees its allocation if it did not fit).
    @inlinable
    static func destroy<T>(_ storage: UnsafeMutablePointer<BFResultStorage>, as _: T.Type) {
        let value = address(storage, as: T.self)
        value.deinitialize(count: 1)
        if !fitsInline(T.self) { value.deallocate() }
    }
}
