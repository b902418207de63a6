// RawStorage.swift: four words that hold a promise's value of any type, or a pointer to it when it does not fit. Each
// style keeps its settled value here (BoltsStyle's `BFStateStorage`, PromiseKitStyle's box and its hand-off); what
// says whether the words hold a value, and of which type, is the style's.
//
// Why raw words: a promise is freed by its class's `deinit`, which is not specialized: one function serves every value
// type. If the value were a stored `T?` (or a generic enum around `T`), that `deinit` would first look up the metadata
// of `Optional<T>` in the runtime's cache just to destroy the field, for every promise freed (Benchmarks/NOTES.md has
// the cost). `T`'s own metadata is in the class's metadata. These words have a layout that does not depend on `T`, and
// `destroy(as:)` needs `T`'s value witness alone. A value that does not fit (more than four words, or aligned more
// strictly than a word) gets its own allocation and the words hold a pointer to it.
//
// The methods are `mutating` so that they work on the words where their owner stores them (a class's stored property
// is passed to them by address): the value in them must never be copied as words.

/// Four words holding a value, or a pointer to it when it does not fit.
@usableFromInline
package struct RawStorage {
    /// The value's bytes, or a pointer to it (see `holdsInline`).
    @usableFromInline var words: (UInt, UInt, UInt, UInt) = (0, 0, 0, 0)

    /// Empty words.
    @inlinable package init() {}

    /// Whether a `T` lives in the words themselves rather than behind a pointer. Always inlined, as is `address`, so
    /// that an unspecialized `deinit` does not call out for them.
    @inlinable @inline(__always) package static func holdsInline<T>(_: T.Type) -> Bool {
        MemoryLayout<T>.size <= MemoryLayout<RawStorage>.size
            && MemoryLayout<T>.alignment <= MemoryLayout<RawStorage>.alignment
    }

    /// Puts `value` into the empty words.
    @inlinable package mutating func store<T>(_ value: T) {
        withUnsafeMutablePointer(to: &self) { words in
            let raw = UnsafeMutableRawPointer(words)
            if RawStorage.holdsInline(T.self) {
                raw.initializeMemory(as: T.self, to: value)
            } else {
                let out = UnsafeMutablePointer<T>.allocate(capacity: 1)
                out.initialize(to: value)
                raw.storeBytes(of: out, as: UnsafeMutablePointer<T>.self)
            }
        }
    }

    /// A copy of the `T` that `store(_:)` put here.
    @inlinable package mutating func load<T>(as _: T.Type) -> T {
        withUnsafeMutablePointer(to: &self) { RawStorage.address(of: T.self, in: $0).pointee }
    }

    /// Moves the `T` that `store(_:)` put here out (and frees its allocation if it did not fit); the words are then
    /// empty.
    @inlinable package mutating func take<T>(as _: T.Type) -> T {
        withUnsafeMutablePointer(to: &self) { words in
            let value = RawStorage.address(of: T.self, in: words)
            defer { if !RawStorage.holdsInline(T.self) { value.deallocate() } }
            return value.move()
        }
    }

    /// Destroys the `T` held here (and frees its allocation if it did not fit); the words are then empty.
    ///
    /// Always inlined: its callers are unspecialized `deinit`s, and this keeps the generic work there to one closure,
    /// as if written in place. The value is moved out and dropped rather than deinitialized in place: in unspecialized
    /// code `deinitialize(count: 1)` goes through the runtime's loop for arrays of any length, while a moved-out value
    /// is destroyed with one call of `T`'s witness.
    @inlinable @inline(__always) package mutating func destroy<T>(as _: T.Type) {
        withUnsafeMutablePointer(to: &self) { words in
            let value = RawStorage.address(of: T.self, in: words)
            _ = value.move()
            if !RawStorage.holdsInline(T.self) { value.deallocate() }
        }
    }

    /// Where the `T` held in `words` is.
    @inlinable @inline(__always) static func address<T>(
        of _: T.Type,
        in words: UnsafeMutablePointer<RawStorage>
    ) -> UnsafeMutablePointer<T> {
        let raw = UnsafeMutableRawPointer(words)
        return holdsInline(T.self) ? raw.assumingMemoryBound(to: T.self) : raw.load(as: UnsafeMutablePointer<T>.self)
    }
}
