/// How a promise settled: PromiseKit's `Result`, what `result`, `pipe(to:)`, `tap` and `when(resolved:)` give.
///
///     switch promise.result {
///     case .fulfilled(let value)?: use(value)
///     case .rejected(let error)?: report(error)
///     case nil: break  // still pending
///     }
///
/// Its name shadows `Swift.Result` in every file that imports PromiseKitStyle, as PromiseKit's does: spell the
/// standard one `Swift.Result<Success, Failure>` there. The two convert both ways (`Result(swiftResult)`,
/// `Swift.Result(result)`), and ``Resolver/resolve(_:)-(Result<T,E>)`` takes a `Swift.Result` directly.
public enum Result<T> {
    /// The promise fulfilled with this value.
    case fulfilled(T)

    /// The promise rejected with this error.
    case rejected(Error)
}

extension Result: Sendable where T: Sendable {}

extension Result {
    /// True for `.fulfilled`.
    @inlinable public var isFulfilled: Bool {
        guard case .fulfilled = self else { return false }
        return true
    }

    /// The value if fulfilled; throws the error if rejected (as `Swift.Result.get()` does).
    @inlinable public func get() throws -> T {
        switch self {
        case .fulfilled(let value): return value
        case .rejected(let error): throw error
        }
    }

    /// `.fulfilled` for `.success`, `.rejected` for `.failure`.
    @inlinable public init<E: Error>(_ result: Swift.Result<T, E>) {
        switch result {
        case .success(let value): self = .fulfilled(value)
        case .failure(let error): self = .rejected(anyError(error))
        }
    }
}

/// `error` as an `any Error`, without boxing it again when it already is one.
///
/// Converting a value of a generic `E: Error` to `any Error` boxes it; when `E` is `any Error` itself (a
/// `Swift.Result<T, any Error>`, the common case), the new box holds the old one, so each conversion nests the error
/// one box deeper. A chain that converts a rejection once per link (a thenable reporting a `Swift.Result`, say) then
/// ends with an error nested once per link, and every dynamic cast of it (`isCancelled`, which `recover` and `catch`
/// ask for under the default policy, or a user's `catch let error as MyError`) unwraps the boxes in one recursive
/// runtime call per box: the stack grows per link, and a long chain overflows it. When `E` is `any Error` the value
/// already is the existential, so it is returned as it is.
@inlinable func anyError<E: Error>(_ error: E) -> any Error {
    if E.self == (any Error).self { return unsafeBitCast(error, to: (any Error).self) }
    return error
}

extension Swift.Result where Failure == Error {
    /// `.success` for `.fulfilled`, `.failure` for `.rejected`.
    @inlinable public init(_ result: PromiseKitStyle.Result<Success>) {
        switch result {
        case .fulfilled(let value): self = .success(value)
        case .rejected(let error): self = .failure(error)
        }
    }
}
