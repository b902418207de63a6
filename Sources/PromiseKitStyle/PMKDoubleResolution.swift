/// What `conf.logHandler` receives, as `.cauterized(PMKDoubleResolution)`, when a ``Resolver`` or the function that
/// resolves a ``Guarantee`` is called on something already resolved. The first resolution stands; the later one changes
/// nothing.
///
/// PromiseKit 8 ignores a second resolution silently. PromiseKitStyle reports it, but through the case PromiseKit
/// already has for a swallowed error rather than a case of its own, so a `switch` over ``LogEvent`` written for
/// PromiseKit stays exhaustive. A handler that wants only `cauterize()`'s errors tells the two apart:
///
///     conf.logHandler = { event in
///         if case .cauterized(let error) = event, error is PMKDoubleResolution { return }
///         ...
///     }
///
/// The most common cause is a body that resolves and then throws: `Promise { seal in seal.fulfill(1); throw e }`
/// reports `e` here as ``ignoredError``.
public struct PMKDoubleResolution: Error, CustomStringConvertible {
    /// The error of the ignored resolution if it was a rejection, `nil` if it was a fulfilment.
    public let ignoredError: Error?

    /// "A promise was resolved again and the resolution was ignored", with the ignored error if there is one.
    public var description: String {
        let what = ignoredError.map { "a rejection (\($0))" } ?? "a fulfilment"
        return "resolved an already resolved promise or guarantee again with \(what); ignored"
    }

    /// Sends the report to `conf.logHandler`. Out of line: resolving twice is the rare path.
    @usableFromInline static func report<T>(_ ignored: Result<T>) {
        var ignoredError: Error?
        if case .rejected(let error) = ignored { ignoredError = error }
        conf.logHandler(.cauterized(PMKDoubleResolution(ignoredError: ignoredError)))
    }
}
