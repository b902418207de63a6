// SealedStorage.swift: where a box keeps its sealed value, as raw words inside the box (and where a handler that hops
// keeps that value on its way to the queue: `Handoff`, Handoff.swift).
//
// A box is freed by `PMKBox.deinit`, which is not specialized: one function serves every `R`. If the value were a
// stored `R?`, that `deinit` would first look up the metadata of `Optional<R>` in the runtime's cache just to destroy
// the field, for every box freed (Benchmarks/NOTES.md has the cost). `R`'s own metadata is in the box's class
// metadata. So the box's state machine keeps its phase plus these four words, whose layout does not depend on `R`,
// and `deinit` destroys the value with `R`'s value witness alone. A value that does not fit (more than four words, or
// aligned more strictly than a word) gets its own allocation and the words hold a pointer to it.
//
// The methods are `mutating` so that they work on the words where the box stores them (a class's stored property is
// passed to them by address): the value in them must never be copied as words. The phase says whether they hold one,
// the box which `R`.

/// Four words holding a sealed value, or a pointer to it when it does not fit.
@usableFromInline
struct SealedStorage {
    /// The value's bytes, or a pointer to it (see `holdsInline`).
    @usableFromInline var words: (UInt, UInt, UInt, UInt) = (0, 0, 0, 0)

    /// Empty words.
    @inlinable init() {}

    /// Whether an `R` lives in the words themselves rather than behind a pointer. Always inlined, as is `address`, so
    /// that the unspecialized `PMKBox.deinit` does not call out for them.
    @inlinable @inline(__always) static func holdsInline<R>(_: R.Type) -> Bool {
        MemoryLayout<R>.size <= MemoryLayout<SealedStorage>.size
            && MemoryLayout<R>.alignment <= MemoryLayout<SealedStorage>.alignment
    }

    /// Puts `value` into the empty words.
    @inlinable mutating func store<R>(_ value: R) {
        withUnsafeMutablePointer(to: &self) { words in
            let raw = UnsafeMutableRawPointer(words)
            if SealedStorage.holdsInline(R.self) {
                raw.initializeMemory(as: R.self, to: value)
            } else {
                let out = UnsafeMutablePointer<R>.allocate(capacity: 1)
                out.initialize(to: value)
                raw.storeBytes(of: out, as: UnsafeMutablePointer<R>.self)
            }
        }
    }

    /// A copy of the `R` that `store(_:)` put here.
    @inlinable mutating func load<R>(as _: R.Type) -> R {
        withUnsafeMutablePointer(to: &self) { SealedStorage.address(of: R.self, in: $0).pointee }
    }

    /// Moves the `R` that `store(_:)` put here out (and frees its allocation if it did not fit); the words are then
    /// empty.
    @inlinable mutating func take<R>(as _: R.Type) -> R {
        withUnsafeMutablePointer(to: &self) { words in
            let value = SealedStorage.address(of: R.self, in: words)
            defer { if !SealedStorage.holdsInline(R.self) { value.deallocate() } }
            return value.move()
        }
    }

    /// Destroys the `R` held here (and frees its allocation if it did not fit); the words are then empty.
    /// Always inlined: its caller, `PMKBox.deinit`, is not specialized, and this keeps the generic work there to one
    /// closure, as if written in place. The value is moved out and dropped rather than deinitialized in place: in
    /// unspecialized code `deinitialize(count: 1)` goes through the runtime's loop for arrays of any length, while a
    /// moved-out value is destroyed with one call of `R`'s witness.
    @inlinable @inline(__always) mutating func destroy<R>(as _: R.Type) {
        withUnsafeMutablePointer(to: &self) { words in
            let value = SealedStorage.address(of: R.self, in: words)
            _ = value.move()
            if !SealedStorage.holdsInline(R.self) { value.deallocate() }
        }
    }

    /// Where the `R` held in `words` is.
    @inlinable @inline(__always) static func address<R>(
        of _: R.Type,
        in words: UnsafeMutablePointer<SealedStorage>
    ) -> UnsafeMutablePointer<R> {
        let raw = UnsafeMutableRawPointer(words)
        return holdsInline(R.self) ? raw.assumingMemoryBound(to: R.self) : raw.load(as: UnsafeMutablePointer<R>.self)
    }
}
