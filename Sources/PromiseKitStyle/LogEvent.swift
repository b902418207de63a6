/// The events PromiseKitStyle reports through `conf.logHandler`.
public enum LogEvent: Sendable {
    /// `wait()` was called on the main thread (it still blocks, as in PromiseKit).
    case waitOnMainThread

    /// A promise created with `Promise { seal in }` or `Promise.pending()` was deallocated, with its resolver,
    /// before it was resolved.
    case pendingPromiseDeallocated

    /// A guarantee created with `Guarantee { seal in }` or `Guarantee.pending()` was deallocated before it was
    /// resolved.
    case pendingGuaranteeDeallocated

    /// `cauterize()` swallowed this error.
    case cauterized(Error)

    /// A resolver tried to resolve a promise or guarantee that was already resolved; the first resolution stands.
    /// (Not in PromiseKit 8, which ignores the second resolution silently.)
    case doubleResolution
}
