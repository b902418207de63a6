import Dispatch
import Hydra
import PromiseConformance

/// Hydra's entry points as its users chain them, each with the signature of
/// ``HydraAdapter/then(_:on:onFulfilled:onRejected:)`` (see `EntryPointSupport.swift`). The adapter's own `then`
/// chains in two steps (the outcome as a promise of a `Result`, then one promise-returning `then`), which a user does
/// not write; these are one Hydra call per link.
extension HydraAdapter {
    /// The three calls below, as ``PromiseAdapter/entryPoints``, for the suite to run its deep-chain clauses and the
    /// `then` clauses whose handlers fit through each of them as well as through the adapter's two-step `then`.
    public var entryPoints: [EntryPoint<HydraPromise>] {
        let adopting: ResultKinds = [.value, .throw, .adopt, .assimilate]
        return [
            EntryPoint(
                "then(in:) { value in }", handlers: .onFulfilled, results: [.value, .throw], takesQueue: true,
                then: valueThen),
            EntryPoint(
                "then(in:) { value -> Promise }", handlers: .onFulfilled, results: adopting, takesQueue: true,
                then: oneStepThen),
            EntryPoint("recover(in:)", handlers: .onRejected, results: adopting, takesQueue: true, then: recoverEntry),
        ]
    }

    /// Hydra's value-returning `then(in:_:)` (`Promise+Then.swift:48-62`): `source.then(in: context) { value in ... }`,
    /// the body returning the next value or throwing. Hydra makes it a promise-returning `then` (`:76-104`) whose
    /// derived promise keeps a body that captures `source`.
    ///
    /// - Handlers: onFulfilled only; a rejection or a cancellation passes through as Hydra passes it.
    /// - Results: value, throw.
    /// - Queue: yes, as `Context.custom(queue:)`; with none, the adapter's stand-in for `.main`.
    public func valueThen(
        _ promise: HydraPromise, on queue: DispatchQueue?,
        onFulfilled: (@Sendable (Sentinel) -> HandlerResult<HydraPromise>)?,
        onRejected: (@Sendable (any Error) -> HandlerResult<HydraPromise>)?
    ) -> HydraPromise {
        if onRejected != nil { entryPointRefuses("Hydra then (value)", "onRejected") }
        let derived: HydraPromiseClass<Sentinel> = promise.promise.then(in: Self.context(queue)) {
            (value: Sentinel) throws -> Sentinel in
            guard let onFulfilled else { return value }
            switch onFulfilled(value) {
            case .fulfill(let next): return next
            case .reject(let error): throw error
            case .adopt: entryPointRefuses("Hydra then (value)", "adopt")
            case .assimilate: entryPointRefuses("Hydra then (value)", "assimilate")
            }
        }
        return HydraPromise(promise: derived)
    }

    /// Hydra's promise-returning `then(in:_:)` (`Promise+Then.swift:76-104`), one step per link:
    /// `source.then(in: context) { value -> Promise<Sentinel> in ... }`. Hydra adopts the returned promise by adding
    /// the derived promise's resolve and reject to it as observers (`:85-90`).
    ///
    /// - Handlers: onFulfilled only; a rejection or a cancellation passes through as Hydra passes it.
    /// - Results: value (`Promise(resolved:)`), throw, adopt, assimilate (the suite's helper's promise).
    /// - Queue: yes, as `Context.custom(queue:)`; with none, the adapter's stand-in for `.main`.
    public func oneStepThen(
        _ promise: HydraPromise, on queue: DispatchQueue?,
        onFulfilled: (@Sendable (Sentinel) -> HandlerResult<HydraPromise>)?,
        onRejected: (@Sendable (any Error) -> HandlerResult<HydraPromise>)?
    ) -> HydraPromise {
        if onRejected != nil { entryPointRefuses("Hydra then (one step)", "onRejected") }
        let derived: HydraPromiseClass<Sentinel> = promise.promise.then(in: Self.context(queue)) {
            (value: Sentinel) throws -> HydraPromiseClass<Sentinel> in
            guard let onFulfilled else { return HydraPromiseClass(resolved: value) }
            return try hydraPromise(onFulfilled(value))
        }
        return HydraPromise(promise: derived)
    }

    /// Hydra's `recover(in:_:)` (`Promise+Recover.swift:43-62`): `source.recover(in: context) { error in ... }`, the
    /// body returning a promise of the same type or throwing. Its derived promise is lazy: its body, which observes
    /// `source`, runs only once an operator is chained on it, so a handler whose derived promise nothing observes is
    /// never called (2.2.3.1 fails through it: docs/ecosystem-conformance.md, Hydra).
    ///
    /// - Handlers: onRejected only; a fulfilment passes through. A cancelled source cancels the derived promise and
    ///   calls no handler (`:58-60`), unlike the adapter's `then`, which hands a rejection handler
    ///   ``HydraCancellation``.
    /// - Results: value (`Promise(resolved:)`), throw, adopt, assimilate.
    /// - Queue: yes, as `Context.custom(queue:)`; with none, the adapter's stand-in for `.main` (Hydra's own default
    ///   here is `.background`, `:44`).
    public func recoverEntry(
        _ promise: HydraPromise, on queue: DispatchQueue?,
        onFulfilled: (@Sendable (Sentinel) -> HandlerResult<HydraPromise>)?,
        onRejected: (@Sendable (any Error) -> HandlerResult<HydraPromise>)?
    ) -> HydraPromise {
        if onFulfilled != nil { entryPointRefuses("Hydra recover", "onFulfilled") }
        let derived = promise.promise.recover(in: Self.context(queue)) { error -> HydraPromiseClass<Sentinel> in
            guard let onRejected else { throw error }
            return try hydraPromise(onRejected(error))
        }
        return HydraPromise(promise: derived)
    }
}
