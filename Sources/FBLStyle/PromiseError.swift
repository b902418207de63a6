import Foundation

/// The errors the library itself rejects promises with.
public enum PromiseError: Error, Equatable {
    /// A promise returned by `timeout(on:_:)` was not resolved in time.
    case timedOut
    /// A promise returned by `validate(on:_:)` got a value that failed the check.
    case validationFailure

    /// Recognizes a `PromiseError`, also after it went through `NSError` (same domain and code).
    public init?(_ error: any Error) {
        if let error = error as? PromiseError {
            self = error
            return
        }
        let error = error as NSError
        guard error.domain == Self.errorDomain else { return nil }
        switch error.code {
        case Self.timedOut.errorCode: self = .timedOut
        case Self.validationFailure.errorCode: self = .validationFailure
        default: return nil
        }
    }
}

extension PromiseError: CustomNSError {
    /// The original's error domain, `com.google.FBLPromiseErrorDomain`.
    public static var errorDomain: String { "com.google.FBLPromiseErrorDomain" }

    /// The original's codes: 1 for `timedOut`, 2 for `validationFailure`.
    public var errorCode: Int {
        switch self {
        case .timedOut: return 1
        case .validationFailure: return 2
        }
    }

    /// Empty, as in the original.
    public var errorUserInfo: [String: Any] { [:] }
}
