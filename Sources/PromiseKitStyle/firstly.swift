// swift-format-ignore: AmbiguousTrailingClosureOverload
/// Starts a chain with the thenable `body` returns, so every step reads alike; if `body` throws, the chain
/// rejects.
///
///     firstly {
///         login()
///     }.then { credentials in
///         fetchProfile(credentials)
///     }.done { profile in
///         show(profile)
///     }.catch { error in
///         report(error)
///     }
public func firstly<U: Thenable>(execute body: () throws -> U) -> Promise<U.T> {
    do {
        let rp = Promise<U.T>(.pending)
        try body().pipe { rp.seal($0) }
        return rp
    } catch {
        return Promise(error: error)
    }
}

// swift-format-ignore: AmbiguousTrailingClosureOverload
/// Starts a chain of guarantees with the guarantee `body` returns.
public func firstly<T>(execute body: () -> Guarantee<T>) -> Guarantee<T> {
    body()
}
