// Handoff.swift: where `then`'s handler, `Follow`, leaves the value for the block it sends to its queue.
//
// The block captures the handler object alone, so that it allocates no closure context (Follow.swift), and the value
// travels in the object. The object is generic over the value's type and freed by its `deinit`, which is not
// specialized: a stored `Value?` would make that `deinit` look up the metadata of `Optional<Value>` in the runtime's
// cache on every free, the cost RawStorage.swift (PromisePlumbing) describes (Benchmarks/NOTES.md has it for this slot).
// So the handoff keeps the value as the box does, in raw words (`RawStorage`), which need no destroying: the block
// takes the value before the object can be freed, since the block itself keeps the object alive and Dispatch runs
// every block it is given. The flag says whether a value is there, for the object's `deinit` to check in debug builds.
// The handoff is not generic either (its methods are): destroying a stored `Handoff<Value>` made the same `deinit`
// look up `Handoff<Value>`'s metadata instead.

import PromisePlumbing

/// A slot for one value on its way from the thread that runs a handler to the block that handler sends to its queue.
@usableFromInline
struct Handoff {
    /// The value's bytes, or a pointer to it, while `holdsValue`.
    @usableFromInline var words = RawStorage()
    /// Whether `put` left a value that `take` has not taken.
    @usableFromInline var holdsValue = false

    /// An empty slot.
    @inlinable init() {}

    /// Leaves `value` in the empty slot.
    @inlinable mutating func put<Value>(_ value: Value) {
        words.store(value)
        holdsValue = true
    }

    /// Takes the `Value` that `put` left; the slot is then empty.
    @inlinable mutating func take<Value>(as _: Value.Type) -> Value {
        holdsValue = false
        return words.take(as: Value.self)
    }
}
