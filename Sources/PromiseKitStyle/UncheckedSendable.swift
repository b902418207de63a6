// UncheckedSendable.swift: how a non-Sendable closure or value crosses threads inside this module.
//
// CONCURRENCY POLICY. As in PromiseKit, user closures are plain `@escaping` (not `@Sendable`) and values are
// unconstrained `T`, so closures and values written for PromiseKit need not be `Sendable` in Swift 6 mode. The
// promise types are `@unchecked Sendable`: the barrier makes their state thread-safe (Box.swift). Closures cross
// threads only inside this module: in this wrapper; when a handler hops to a DispatchQueue, as the
// `nonisolated(unsafe)` captures of the block it hands the queue (Thenable.swift); or inside a handler object that
// the block captures, a `Hop` (Hop.swift) or the finalizer of `catch`.

/// Moves a non-Sendable value across threads inside this module, where the barrier or a queue orders the accesses.
@usableFromInline
struct UncheckedSendable<Value>: @unchecked Sendable {
    @usableFromInline let value: Value
    @inlinable init(_ value: Value) { self.value = value }
}
