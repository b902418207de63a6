/// An `Optional` of any wrapped type, so that ``Promise/value`` can tell a `nil` value without knowing `Value` (and
/// `ErrorTypeCache` can look at the wrapped type).
///
/// The original reads a promise's value back from Objective-C, where a Swift `nil`, at any depth of optionals or
/// inside `Any`, is stored as `NSNull`, and it hands back `nil` for it: a `Promise<Int?>` fulfilled with `nil` has
/// `value == nil`, not `Optional(nil)`. Casting a value to `any AnyOptional` finds the optional inside an existential
/// as well, and does not look through the optional itself, since `Optional` conforms.
protocol AnyOptional {
    /// The type of the wrapped value.
    static var wrappedType: Any.Type { get }

    /// Whether this is `nil`, or an optional (also inside an existential) whose value is `nil`, at any depth.
    var isNilAtAnyDepth: Bool { get }
}

extension Optional: AnyOptional {
    static var wrappedType: Any.Type { Wrapped.self }

    var isNilAtAnyDepth: Bool {
        guard case .some(let wrapped) = self else { return true }
        return (wrapped as? any AnyOptional)?.isNilAtAnyDepth ?? false
    }
}
