import Foundation

/// The errors PromiseKit itself produces.
public enum PMKError: Error {
    /// A completion handler of the form `(T?, Error?)` was called with `(nil, nil)`.
    case invalidCallingConvention

    /// A handler returned the very promise it was chained to produce. Almost always a programming error, and
    /// invalid per Promises/A+.
    case returnedSelf

    /// `when`, `race` or a similar function was called with invalid input (an empty array for `race`, a
    /// concurrency below 1 for `when(fulfilled:concurrently:)`).
    case badInput

    /// The operation was cancelled. `catch` skips it under the default ``CatchPolicy``.
    case cancelled

    /// `flatMap` returned `nil`: PromiseKit's old name for ``compactMap(_:_:)``. Nothing here produces it; the case
    /// exists so that a `switch` written for PromiseKit is exhaustive.
    @available(*, deprecated, message: "See: `compactMap`")
    case flatMap(Any, Any.Type)

    /// `compactMap` returned `nil`: the value it was given and the type it was asked for.
    case compactMap(Any, Any.Type)

    /// `firstValue` or `lastValue` was asked of an empty sequence, or no element passed `firstValue(where:)`.
    case emptySequence

    /// `race(fulfilled:)` saw every promise reject.
    case noWinner
}

// `compactMap` carries `Any`; the payload is only ever read, so sharing it across threads is safe.
extension PMKError: @unchecked Sendable {}

extension PMKError: CustomDebugStringConvertible {
    /// A sentence describing the error.
    public var debugDescription: String {
        switch self {
        case .invalidCallingConvention:
            return "A closure was called with an invalid calling convention, probably (nil, nil)"
        case .returnedSelf:
            return "A promise handler returned itself"
        case .badInput:
            return "Bad input was provided to a PromiseKit function"
        case .cancelled:
            return "The asynchronous sequence was cancelled"
        case .compactMap(let value, let type):
            return "Could not `compactMap<\(type)>`: \(value)"
        case .emptySequence:
            return "The first or last element was requested for an empty sequence"
        case .noWinner:
            return "All thenables passed to race(fulfilled:) were rejected"
        default:
            // `.flatMap`, read by reflection: naming the deprecated case here would be a deprecation warning.
            let payload = Mirror(reflecting: self).children.first?.value as? (Any, Any.Type)
            return "Could not `flatMap<\(payload.map { "\($0.1)" } ?? "?")>`: \(payload.map { "\($0.0)" } ?? "?")"
        }
    }
}

extension PMKError: LocalizedError {
    /// The same sentence as `debugDescription`.
    public var errorDescription: String? { debugDescription }
}

/// An error that may represent the cancelled condition; `catch` skips it when `isCancelled` is true under the
/// default ``CatchPolicy``.
public protocol CancellableError: Error {
    /// True if this error means the operation was cancelled.
    var isCancelled: Bool { get }
}

extension Error {
    /// True for `PMKError.cancelled`, a ``CancellableError`` that says so, Swift's `CancellationError`,
    /// `URLError.cancelled` and `CocoaError.userCancelled`.
    public var isCancelled: Bool {
        if case .cancelled? = self as? PMKError { return true }
        if let cancellable = self as? CancellableError { return cancellable.isCancelled }
        if self is CancellationError { return true }
        if let urlError = self as? URLError { return urlError.code == .cancelled }
        if let cocoaError = self as? CocoaError { return cocoaError.code == .userCancelled }
        return false
    }
}

/// Which errors `catch` and `recover` handle.
public enum CatchPolicy: Sendable {
    /// Handle every error, cancellation included.
    case allErrors

    /// Handle every error except those whose `isCancelled` is true (the default).
    case allErrorsExceptCancellation

    /// Whether a handler under this policy is called for `error`.
    @inlinable func handles(_ error: any Error) -> Bool {
        self == .allErrors || !error.isCancelled
    }
}
