// SealedStorage.swift: where a box keeps its sealed value, as raw words inside the box.
//
// A box is freed by `PMKBox.deinit`, which is not specialized: one function serves every `R`. If the value were a
// stored `R?`, that `deinit` would first look up the metadata of `Optional<R>` in the runtime's cache just to destroy
// the field, for every box freed (Benchmarks/NOTES.md has the cost). `R`'s own metadata is in the box's class
// metadata. So the box keeps `isSealed` plus these four words, whose layout does not depend on `R`, and `deinit`
// destroys the value with `R`'s value witness alone. A value that does not fit (more than four words, or aligned
// more strictly than a word) gets its own allocation and the words hold a pointer to it.

/// Four words holding a sealed value, or a pointer to it when it does not fit.
@usableFromInline
struct SealedStorage {
    @usableFromInline var words: (UInt, UInt, UInt, UInt) = (0, 0, 0, 0)

    @inlinable init() {}

    /// Whether an `R` lives in the words themselves rather than behind a pointer.
    @inlinable static func holdsInline<R>(_: R.Type) -> Bool {
        MemoryLayout<R>.size <= MemoryLayout<SealedStorage>.size
            && MemoryLayout<R>.alignment <= MemoryLayout<SealedStorage>.alignment
    }

    /// Where the `R` held in `storage` is.
    @inlinable static func valueAddress<R>(
        _ storage: UnsafeMutablePointer<SealedStorage>,
        _: R.Type
    ) -> UnsafeMutablePointer<R> {
        let raw = UnsafeMutableRawPointer(storage)
        return holdsInline(R.self) ? raw.assumingMemoryBound(to: R.self) : raw.load(as: UnsafeMutablePointer<R>.self)
    }

    /// Puts `value` into the empty `storage`.
    @inlinable static func put<R>(_ value: R, into storage: UnsafeMutablePointer<SealedStorage>) {
        let raw = UnsafeMutableRawPointer(storage)
        if holdsInline(R.self) {
            raw.initializeMemory(as: R.self, to: value)
        } else {
            let out = UnsafeMutablePointer<R>.allocate(capacity: 1)
            out.initialize(to: value)
            raw.storeBytes(of: out, as: UnsafeMutablePointer<R>.self)
        }
    }

    /// Destroys the `R` held in `storage` (and frees its allocation if it did not fit).
    @inlinable static func destroy<R>(_ storage: UnsafeMutablePointer<SealedStorage>, _: R.Type) {
        let value = valueAddress(storage, R.self)
        value.deinitialize(count: 1)
        if !holdsInline(R.self) { value.deallocate() }
    }
}
