import Foundation

// The `nil` that blocks receive as `NSNull`. The original's Swift layer keeps every value in its Objective-C core as an
// object, and a Swift `nil` (at any depth of optionals, or inside an `Any`) as no object at all. Where it reads a value
// back to hand it to Swift code (the blocks of `then` and `validate`, `awaitPromise`, the tuple forms of `all`, and
// `any`), it casts the object to `Value`, and for the missing object it casts `NSNull()` instead. So when `Value` can
// hold an `NSNull` (`Any?`, `AnyObject?`, `Any`, an optional `NSObject`), those receive `NSNull()` for a `nil`, and a
// `then` that passes its value on fulfils the promise it returns with that `NSNull`. Only ``Promise/value`` reads the
// stored `nil` as `nil`, and a value type's optional (`Int?`) stays `nil` everywhere. `valueForBlocks(_:)` gives Swift
// code what the original gives it, on every platform: Foundation's `NSNull` exists on Linux as well.

extension Promise {
    /// What a block (or `awaitPromise`, `all`, `any`) receives for a fulfilment with `value`: `NSNull()` for a `nil`
    /// when `Value` can hold one, as in the original, and `value` itself otherwise (at no cost for the types of
    /// ``isNeverErrorOrNull``).
    @inlinable static func valueForBlocks(_ value: Value) -> Value {
        if isNeverErrorOrNull { return value }
        return nullStandIn(for: value) ?? value
    }
}

/// `NSNull()` as a `Value`, when `value` is `nil` at any depth and `Value` can hold an `NSNull`; otherwise `nil`.
@usableFromInline func nullStandIn<Value>(for value: Value) -> Value? {
    // Only a class, an existential or an optional of one can hold an `NSNull`, and those are among the types that
    // `ErrorTypeCache` answers yes for (besides error types, whose values are never a `nil`).
    guard ErrorTypeCache.mayBeError(Value.self) else { return nil }
    guard let optional = value as? any AnyOptional, optional.isNilAtAnyDepth else { return nil }
    guard let null = NSNull() as Any as? Value else { return nil }
    if let stillNil = null as? any AnyOptional, stillNil.isNilAtAnyDepth { return nil }
    return null
}
