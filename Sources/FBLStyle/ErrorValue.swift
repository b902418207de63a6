import Foundation
import PromisePlumbing

// Which fulfilments reject. Google's core rejects a promise fulfilled with an error object (an `NSError`), and its
// Swift layer hands every value to that core as an Objective-C object (`value as AnyObject`). On Apple platforms that
// conversion boxes a Swift error struct or enum in an `NSError`, bridges a `String`, a number or a collection to its
// own class (`NSString`, `NSNumber`, ...), and leaves an instance of a class as it is. So the original rejects a
// promise fulfilled with an error value, also inside an `Optional` or an `Any`, unless the value is one of those
// bridged types (`extension String: Error {}` still fulfils with the string) or an instance of a Swift class that
// conforms to `Error` without being an `NSError`. `fulfilmentError(of:)` decides the same way, on every platform.
//
// Cost. Casting a value to `any Error` costs a conformance lookup in the runtime every time, and `fulfill` is on every
// promise's path. Whether a value of a given static type can be an error at all is a property of the type, so it is
// decided once per type and kept in `ErrorTypeCache`; most types (`Int`, `String`, a struct of the app's) cannot, and
// their fulfilments skip the cast, as do optionals of such types. An `Any` is judged by the type of what it holds,
// through the same cache. Only other existentials, classes and error types themselves cast each value.

extension Promise {
    /// The resolution of fulfilling with `value`: a rejection when `value` is an error (the header says which
    /// values are), as in the original, whether it comes from `fulfill`, `Promise(error)` without a type
    /// annotation, a block returning an error, or a completion handler passing an `(any Error)?`.
    @inlinable static func fulfilment(with value: Value) -> Resolution {
        if !isNeverErrorOrNull, let error = fulfilmentError(of: value) { return .failure(error) }
        return .success(value)
    }

    /// Whether `Value` is one of the most common types, whose values are never an error and never stand for `nil`:
    /// `Void` (a tuple) cannot conform to `Error`, and the original converts `Bool`, `Int`, `Double` and `String` to
    /// Objective-C classes that are no errors and no `NSNull` (`NSNumber`, `NSString`), even when they are made to
    /// conform. The fulfilment's error check and the `NSNull` of `BridgedNil.swift` skip these types here, where the
    /// optimizer sees `Value` in a client's specialization and drops the comparisons.
    @inlinable static var isNeverErrorOrNull: Bool {
        Value.self == Void.self || Value.self == Bool.self || Value.self == Int.self || Value.self == Double.self
            || Value.self == String.self
    }
}

/// The error that fulfilling a promise with `value` rejects it with, or `nil` when `value` fulfils it.
@usableFromInline func fulfilmentError<Value>(of value: Value) -> (any Error)? {
    guard ErrorTypeCache.mayBeError(Value.self) else { return nil }
    // `Any` may hold anything, but what it holds has a type of its own, which the cache knows as well.
    if Value.self == Any.self, !ErrorTypeCache.mayBeError(type(of: value as Any)) {
        return nil
    }
    guard let error = value as? any Error else { return nil }
    let errorType = type(of: error)
    if errorType is AnyObject.Type {
        return errorType is NSError.Type ? error : nil
    }
    return bridgesToAnotherClass(error) ? nil : error
}

/// Whether the original hands `error`, a value of a Swift struct or enum, to its core as an object of another class
/// than `NSError`: the conversion `as AnyObject` bridges `String`, numbers, collections and Foundation's value types
/// to their own classes (`NSString`, `NSNumber`, `NSArray`, `NSUUID`, ...), and every other error value to an
/// `NSError` (Apple platforms) or to the runtime's box for Swift values (Linux, where no value becomes an `NSError`).
func bridgesToAnotherClass(_ error: any Error) -> Bool {
    let object = error as AnyObject
    return !(object is NSError) && type(of: object) != swiftValueBox
}

/// The class `as AnyObject` boxes a Swift value in when the value bridges to no class of its own.
private let swiftValueBox: AnyClass = type(of: UnbridgedProbe() as AnyObject)

/// A value of a type that bridges to no class.
private struct UnbridgedProbe {}

/// Remembers, per static type, whether a value of that type can be an error (see the header).
///
/// A small table indexed by the type's metadata address; each slot holds an address with the answer in its lowest
/// bit (metadata is aligned, so that bit is free). A collision just computes the answer again.
enum ErrorTypeCache {
    /// Guards `slots`.
    private static let lock = Lock()
    /// `slotCount` slots, zero when empty.
    nonisolated(unsafe) private static let slots: UnsafeMutablePointer<UInt> = {
        let slots = UnsafeMutablePointer<UInt>.allocate(capacity: slotCount)
        slots.initialize(repeating: 0, count: slotCount)
        return slots
    }()
    private static let slotCount = 256

    /// Whether a value whose static type is `type` can be an error.
    static func mayBeError(_ type: Any.Type) -> Bool {
        let address = UInt(bitPattern: ObjectIdentifier(type))
        let index = Int(truncatingIfNeeded: (address >> 4) ^ (address >> 12)) & (slotCount - 1)
        let slot = lock.withLock { slots[index] }
        if slot & ~1 == address { return slot & 1 != 0 }
        let answer = computeMayBeError(type)
        lock.withLock { slots[index] = address | (answer ? 1 : 0) }
        return answer
    }

    /// Decides for `type` from its kind and conformances.
    private static func computeMayBeError(_ type: Any.Type) -> Bool {
        if let optional = type as? any AnyOptional.Type {
            return mayBeError(optional.wrappedType)
        }
        // A class's instances may be `NSError`s; a type conforming to `Error` is one; an existential may hold one.
        return type is AnyObject.Type || type is any Error.Type || isExistential(type)
    }

    /// Whether `type` is an existential (`Any`, `AnyObject`, `any P`, `any P<T>`): the metadata kind, the first word
    /// of a type's metadata in Swift's stable ABI, is 0x303 for an existential and 0x307 for an extended one.
    private static func isExistential(_ type: Any.Type) -> Bool {
        let metadata = UnsafeRawPointer(bitPattern: UInt(bitPattern: ObjectIdentifier(type)))!
        let kind = metadata.load(as: UInt.self)
        return kind == 0x303 || kind == 0x307
    }
}
