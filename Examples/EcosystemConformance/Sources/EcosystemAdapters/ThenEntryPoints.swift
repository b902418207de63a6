import Dispatch
import PromiseConformance
import Then

/// freshOS/Then's chaining calls as its users write them, each with the signature of
/// ``ThenAdapter/then(_:on:onFulfilled:onRejected:)`` (see `EntryPointSupport.swift`). The adapter's own `then` settles
/// a new `Promise()` from `then { }.onError { }`; these return the promise Then's own call returns. Then has no
/// queues, so none of them takes one: a handler runs where Then runs its block.
extension ThenAdapter {
    /// The three calls below, as ``PromiseAdapter/entryPoints``, for the suite to run its deep-chain clauses and the
    /// `then` clauses whose handlers fit through each of them as well as through the adapter's `then`.
    public var entryPoints: [EntryPoint<ThenPromise>] {
        let adopting: ResultKinds = [.value, .throw, .adopt, .assimilate]
        return [
            EntryPoint("then { value in }", handlers: .onFulfilled, results: .value, then: valueThen),
            EntryPoint("then { value -> Promise }", handlers: .onFulfilled, results: adopting, then: promiseThen),
            EntryPoint("recover { error -> Promise }", handlers: .onRejected, results: adopting, then: recoverEntry),
        ]
    }

    /// The value-returning `then(_:)` (`Sources/Then/Promise+Then.swift:13-17`): `promise.then { value in ... }`. Its
    /// block cannot throw.
    ///
    /// - Handlers: onFulfilled only; a rejection passes through.
    /// - Results: value.
    /// - Queue: no (a queue passed is not used).
    public func valueThen(
        _ promise: ThenPromise, on queue: DispatchQueue?,
        onFulfilled: (@Sendable (Sentinel) -> HandlerResult<ThenPromise>)?,
        onRejected: (@Sendable (any Error) -> HandlerResult<ThenPromise>)?
    ) -> ThenPromise {
        if onRejected != nil { entryPointRefuses("Then then (value)", "onRejected") }
        let derived = promise.promise.then { (value: Sentinel) -> Sentinel in
            guard let onFulfilled else { return value }
            switch onFulfilled(value) {
            case .fulfill(let next): return next
            case .reject: entryPointRefuses("Then then (value)", "throw")
            case .adopt: entryPointRefuses("Then then (value)", "adopt")
            case .assimilate: entryPointRefuses("Then then (value)", "assimilate")
            }
        }
        return ThenPromise(promise: derived)
    }

    /// The promise-returning `then(_:)` (`Sources/Then/Promise+Then.swift:45-49`, adoption at `:83-91`):
    /// `promise.then { value -> Promise<Sentinel> in ... }`. A Then user rejects by returning `Promise(error:)`.
    ///
    /// - Handlers: onFulfilled only; a rejection passes through.
    /// - Results: value (`Promise(_:)`), throw (`Promise(error:)`), adopt, assimilate (the suite's helper's
    ///   promise).
    /// - Queue: no.
    public func promiseThen(
        _ promise: ThenPromise, on queue: DispatchQueue?,
        onFulfilled: (@Sendable (Sentinel) -> HandlerResult<ThenPromise>)?,
        onRejected: (@Sendable (any Error) -> HandlerResult<ThenPromise>)?
    ) -> ThenPromise {
        if onRejected != nil { entryPointRefuses("Then then (promise)", "onRejected") }
        let derived = promise.promise.then { (value: Sentinel) -> ThenLibraryPromise<Sentinel> in
            guard let onFulfilled else { return ThenLibraryPromise(value) }
            return libraryPromise(onFulfilled(value))
        }
        return ThenPromise(promise: derived)
    }

    /// The promise-returning `recover(_:)` (`Sources/Then/Promise+Recover.swift:84-101`):
    /// `promise.recover { error -> Promise<Sentinel> in ... }`, which may also throw.
    ///
    /// - Handlers: onRejected only; a fulfilment passes through.
    /// - Results: value (`Promise(_:)`), throw, adopt, assimilate.
    /// - Queue: no.
    public func recoverEntry(
        _ promise: ThenPromise, on queue: DispatchQueue?,
        onFulfilled: (@Sendable (Sentinel) -> HandlerResult<ThenPromise>)?,
        onRejected: (@Sendable (any Error) -> HandlerResult<ThenPromise>)?
    ) -> ThenPromise {
        if onFulfilled != nil { entryPointRefuses("Then recover", "onFulfilled") }
        let derived = promise.promise.recover { (error: any Error) throws -> ThenLibraryPromise<Sentinel> in
            guard let onRejected else { throw error }
            return libraryPromise(onRejected(error))
        }
        return ThenPromise(promise: derived)
    }

    /// The promise a promise-returning block returns for what the handler asks for.
    private func libraryPromise(_ result: HandlerResult<ThenPromise>) -> ThenLibraryPromise<Sentinel> {
        switch result {
        case .fulfill(let value): ThenLibraryPromise(value)
        case .reject(let error): ThenLibraryPromise(error: error)
        case .adopt(let other): other.promise
        case .assimilate(let thenable): assimilated(thenable).promise
        }
    }
}
