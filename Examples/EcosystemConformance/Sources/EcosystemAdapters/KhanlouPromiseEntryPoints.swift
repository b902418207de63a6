import Dispatch
import Foundation
import Promise
import PromiseConformance

/// khanlou/Promise's chaining calls as its users write them, each with the signature of
/// ``KhanlouPromiseAdapter/then(_:on:onFulfilled:onRejected:)`` (see `EntryPointSupport.swift`). The adapter's own
/// `then` registers both handlers with the three-argument `then(on:_:_:)` inside `Promise(work:)`; these are the
/// one-handler calls. Not here: `catch(on:_:)` and `then(on:_:_:)`, which return the promise they are called on
/// (`Promise.swift:239-255`), so a handler cannot change what the next link sees.
extension KhanlouPromiseAdapter {
    /// The three calls below, as ``PromiseAdapter/entryPoints``, for the suite to run its deep-chain clauses and the
    /// `then` clauses whose handlers fit through each of them as well as through the adapter's `then`.
    public var entryPoints: [EntryPoint<KhanlouPromise>] {
        let adopting: ResultKinds = [.value, .throw, .adopt, .assimilate]
        return [
            EntryPoint(
                "then(on:) { value in }", handlers: .onFulfilled, results: [.value, .throw], takesQueue: true,
                then: valueThen),
            EntryPoint(
                "then(on:) { value -> Promise }", handlers: .onFulfilled, results: adopting, takesQueue: true,
                then: promiseThen),
            EntryPoint("recover(on:)", handlers: .onRejected, results: adopting, takesQueue: true, then: recoverEntry),
        ]
    }

    /// The value-returning `then(on:_:)` (`Promise.swift:221-229`, "roughly the equivalent of a traditional
    /// `map()`"): `promise.then(on: queue) { value in ... }`, returning the next value or throwing. The library makes
    /// it the promise-returning `then`.
    ///
    /// - Handlers: onFulfilled only; a rejection passes through.
    /// - Results: value, throw.
    /// - Queue: yes; with none, `DispatchQueue.global()` (the library's default is the main queue, which the suite
    ///   does not serve).
    public func valueThen(
        _ promise: KhanlouPromise, on queue: DispatchQueue?,
        onFulfilled: (@Sendable (Sentinel) -> HandlerResult<KhanlouPromise>)?,
        onRejected: (@Sendable (any Error) -> HandlerResult<KhanlouPromise>)?
    ) -> KhanlouPromise {
        if onRejected != nil { entryPointRefuses("khanlou/Promise then (value)", "onRejected") }
        let derived = promise.promise.then(on: queue ?? DispatchQueue.global()) {
            (value: Sentinel) throws -> Sentinel in
            guard let onFulfilled else { return value }
            switch onFulfilled(value) {
            case .fulfill(let next): return next
            case .reject(let error): throw error
            case .adopt: entryPointRefuses("khanlou/Promise then (value)", "adopt")
            case .assimilate: entryPointRefuses("khanlou/Promise then (value)", "assimilate")
            }
        }
        return KhanlouPromise(promise: derived)
    }

    /// The promise-returning `then(on:_:)` (`Promise.swift:194-208`, "roughly the equivalent of a traditional
    /// `flatMap()`"): `promise.then(on: queue) { value -> Promise<Sentinel> in ... }`. The library adopts the returned
    /// promise with `then(on:_:_:)` on it (`:200`).
    ///
    /// - Handlers: onFulfilled only; a rejection passes through.
    /// - Results: value (`Promise(value:)`), throw, adopt, assimilate (the suite's helper's promise).
    /// - Queue: yes; with none, `DispatchQueue.global()`.
    public func promiseThen(
        _ promise: KhanlouPromise, on queue: DispatchQueue?,
        onFulfilled: (@Sendable (Sentinel) -> HandlerResult<KhanlouPromise>)?,
        onRejected: (@Sendable (any Error) -> HandlerResult<KhanlouPromise>)?
    ) -> KhanlouPromise {
        if onRejected != nil { entryPointRefuses("khanlou/Promise then (promise)", "onRejected") }
        let derived = promise.promise.then(on: queue ?? DispatchQueue.global()) {
            (value: Sentinel) throws -> KhanlouLibraryPromise<Sentinel> in
            guard let onFulfilled else { return KhanlouLibraryPromise(value: value) }
            return try libraryPromise(onFulfilled(value))
        }
        return KhanlouPromise(promise: derived)
    }

    /// `recover(on:_:)` (`Promise+Extras.swift:223-225`, over `recover(type:on:_:)`, `:234-248`):
    /// `promise.recover(on: queue) { error -> Promise<Sentinel> in ... }`. Built on `then` and `catch` inside
    /// `Promise(work:)`, so it registers as late as `then` does.
    ///
    /// - Handlers: onRejected only; a fulfilment passes through.
    /// - Results: value (`Promise(value:)`), throw, adopt, assimilate.
    /// - Queue: yes; with none, `DispatchQueue.global()`.
    public func recoverEntry(
        _ promise: KhanlouPromise, on queue: DispatchQueue?,
        onFulfilled: (@Sendable (Sentinel) -> HandlerResult<KhanlouPromise>)?,
        onRejected: (@Sendable (any Error) -> HandlerResult<KhanlouPromise>)?
    ) -> KhanlouPromise {
        if onFulfilled != nil { entryPointRefuses("khanlou/Promise recover", "onFulfilled") }
        let derived = promise.promise.recover(on: queue ?? DispatchQueue.global()) {
            (error: any Error) throws -> KhanlouLibraryPromise<Sentinel> in
            guard let onRejected else { throw error }
            return try libraryPromise(onRejected(error))
        }
        return KhanlouPromise(promise: derived)
    }

    /// The promise a promise-returning closure returns (or the error it throws) for what the handler asks for.
    private func libraryPromise(_ result: HandlerResult<KhanlouPromise>) throws -> KhanlouLibraryPromise<Sentinel> {
        switch result {
        case .fulfill(let value): return KhanlouLibraryPromise(value: value)
        case .reject(let error): throw error
        case .adopt(let other): return other.promise
        case .assimilate(let thenable): return assimilated(thenable).promise
        }
    }
}
