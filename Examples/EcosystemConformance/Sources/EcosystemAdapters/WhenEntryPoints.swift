import Dispatch
import PromiseConformance
import When

/// When's value-returning `then(on:)` and `recover(on:)` as its users write them, each with the signature of
/// ``WhenAdapter/then(_:on:onFulfilled:onRejected:)`` (see `EntryPointSupport.swift`). With one handler the adapter's
/// own `then` is already When's one-step call, its promise-returning `then(on:)` or `recover(on:)`
/// (`Sources/Promise.swift:192-203`, `:255-268`): those need no variant here. With both handlers it chains three
/// calls through a `Result`, which a user does not write.
extension WhenAdapter {
    /// The two calls below, as ``PromiseAdapter/entryPoints``, for the suite to run its deep-chain clauses and the
    /// `then` clauses whose handlers fit through each of them as well as through the adapter's `then`.
    public var entryPoints: [EntryPoint<WhenPromise>] {
        [
            EntryPoint(
                "then(on:) { value in }", handlers: .onFulfilled, results: [.value, .throw], takesQueue: true,
                then: valueThen),
            EntryPoint(
                "recover(on:) { error in }", handlers: .onRejected, results: [.value, .throw], takesQueue: true,
                then: valueRecover),
        ]
    }

    /// The value-returning `then(on:_:)` (`Sources/Promise.swift:186-190`): `promise.then(on: queue) { value in ... }`,
    /// returning the next value or throwing.
    ///
    /// - Handlers: onFulfilled only; a rejection passes through.
    /// - Results: value, throw.
    /// - Queue: yes; with none, the adapter's stand-in for `.main`, When's default.
    public func valueThen(
        _ promise: WhenPromise, on queue: DispatchQueue?,
        onFulfilled: (@Sendable (Sentinel) -> HandlerResult<WhenPromise>)?,
        onRejected: (@Sendable (any Error) -> HandlerResult<WhenPromise>)?
    ) -> WhenPromise {
        if onRejected != nil { entryPointRefuses("When then (value)", "onRejected") }
        let derived = promise.promise.then(on: queue ?? whenMainStandIn) { (value: Sentinel) throws -> Sentinel in
            guard let onFulfilled else { return value }
            return try plainValue(onFulfilled(value), "When then (value)")
        }
        return WhenPromise(promise: derived)
    }

    /// The value-returning `recover(on:_:)` (`Sources/Promise.swift:246-250`): `promise.recover(on: queue) { error in
    /// ... }`, returning a value or throwing.
    ///
    /// - Handlers: onRejected only; a fulfilment passes through.
    /// - Results: value, throw.
    /// - Queue: yes; with none, the adapter's stand-in for `.main`.
    public func valueRecover(
        _ promise: WhenPromise, on queue: DispatchQueue?,
        onFulfilled: (@Sendable (Sentinel) -> HandlerResult<WhenPromise>)?,
        onRejected: (@Sendable (any Error) -> HandlerResult<WhenPromise>)?
    ) -> WhenPromise {
        if onFulfilled != nil { entryPointRefuses("When recover (value)", "onFulfilled") }
        let derived = promise.promise.recover(on: queue ?? whenMainStandIn) { (error: any Error) throws -> Sentinel in
            guard let onRejected else { throw error }
            return try plainValue(onRejected(error), "When recover (value)")
        }
        return WhenPromise(promise: derived)
    }

    /// A value or a thrown error: what a closure that returns a plain value can express.
    private func plainValue(_ result: HandlerResult<WhenPromise>, _ entryPoint: String) throws -> Sentinel {
        switch result {
        case .fulfill(let value): return value
        case .reject(let error): throw error
        case .adopt: entryPointRefuses(entryPoint, "adopt")
        case .assimilate: entryPointRefuses(entryPoint, "assimilate")
        }
    }
}
