// UncheckedSendable.swift: how a style moves a value across threads that the compiler cannot see is safe to move.
//
// A style hands its own work to a queue or an executor as a `@Sendable` closure; what that closure captures (a user's
// closure or value, or a promise of a value that is not `Sendable`) crosses threads where the style's lock, barrier or
// queue orders every access. The wrapper says so in one place, and in both builds: `nonisolated(unsafe)` would be
// flagged as unnecessary where the trait CheckedHandlers makes the captured type `Sendable`.

/// A value moved across threads where the style orders the accesses itself.
@usableFromInline
package struct UncheckedSendable<Value>: @unchecked Sendable {
    /// The value moved.
    @usableFromInline package let value: Value

    /// Wraps `value`.
    @inlinable package init(_ value: Value) { self.value = value }
}
