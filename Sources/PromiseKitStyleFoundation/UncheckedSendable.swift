/// A value carried across a `@Sendable` boundary by a caller that knows no two threads use it at once.
struct UncheckedSendable<Value>: @unchecked Sendable {
    /// The value.
    let value: Value
}
