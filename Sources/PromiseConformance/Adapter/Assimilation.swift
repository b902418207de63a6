/// The Promises/A+ 2.3.3 procedure for a foreign ``Thenable``, for an adapter whose library cannot assimilate one.
///
/// Many libraries have no notion of "any object with a `then` method": they adopt only their own kind of promise. To
/// declare ``Capabilities/assimilation`` anyway, an adapter settles one of its library's promises with the single
/// outcome this helper reports, through the library's own API:
///
/// ```swift
/// func assimilated(_ thenable: any Thenable) -> Promise {
///     let (promise, fulfill, reject) = pending()
///     Assimilation.resolve(thenable) { outcome in
///         switch outcome {
///         case .success(let value): fulfill(value)
///         case .failure(let error): reject(error)
///         }
///     }
///     return promise
/// }
/// ```
///
/// The 2.3.3 clauses then check this procedure, not the library, and the report says so: a result whose thenables
/// went through the helper has ``ClauseResult/assimilatedByHelper`` set, and the matrix shows its cell as
/// `pass (helper)` (or `FAIL (helper)`, ...).
public enum Assimilation {
    /// Runs the procedure on `thenable` and calls `settle` at most once with its outcome: it calls `then` once, lets
    /// the first callback call win and ignores every later call and a throw after a call (2.3.3.3.3, 2.3.3.3.4.1),
    /// rejects with what `then` throws before any call (2.3.3.3.4.2), and follows a thenable passed to
    /// `resolvePromise` in turn (2.3.3.3.1).
    public static func resolve(
        _ thenable: any Thenable, _ settle: @escaping @Sendable (Result<Sentinel, any Error>) -> Void
    ) {
        (thenable as? any HelperWatchedThenable)?.resolvedByHelper()
        let once = Once()
        do {
            try thenable.then(
                { value in
                    guard once.claim() else { return }
                    switch value {
                    case .value(let sentinel): settle(.success(sentinel))
                    case .thenable(let next): resolve(next, settle)
                    }
                },
                { error in
                    if once.claim() { settle(.failure(error)) }
                })
        } catch {
            if once.claim() { settle(.failure(error)) }
        }
    }
}

/// A thenable of the suite's own that wants to know when ``Assimilation/resolve(_:_:)`` resolves it: the 2.3.3
/// clauses' thenables, so that a result can say its verdict is about the helper (``ClauseResult/assimilatedByHelper``).
/// A protocol here, so that this folder needs nothing from the clauses' (the module overview draws the folders).
protocol HelperWatchedThenable: Thenable {
    /// Called once by the helper as it starts resolving this thenable.
    func resolvedByHelper()
}
