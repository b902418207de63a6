/// The events PromiseKitStyle reports through `conf.logHandler`: exactly PromiseKit 8's cases, so a `switch`
/// written for PromiseKit is exhaustive here too.
///
/// Resolving something already resolved, which PromiseKit ignores silently, is reported as `.cauterized` with a
/// ``PMKDoubleResolution`` error.
public enum LogEvent: Sendable {
    /// `wait()` was called on the main thread (it still blocks, as in PromiseKit).
    case waitOnMainThread

    /// A promise created with `Promise { seal in }` or `Promise.pending()` was deallocated, with its resolver,
    /// before it was resolved.
    case pendingPromiseDeallocated

    /// A guarantee created with `Guarantee { seal in }` or `Guarantee.pending()` was deallocated before it was
    /// resolved.
    case pendingGuaranteeDeallocated

    /// `cauterize()` swallowed this error; or a resolver was called again on a resolved promise or guarantee, and the
    /// error is a ``PMKDoubleResolution``.
    case cauterized(Error)
}
