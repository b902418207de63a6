import BrightFutures
import Dispatch
import PromiseConformance

/// BrightFutures' transforming calls as its users write them, each with the signature of
/// ``BrightFuturesAdapter/then(_:on:onFulfilled:onRejected:)`` (see `EntryPointSupport.swift`). The adapter's own
/// `then` is one `onComplete` callback completing a new `Promise`; these are the library's `map`, `flatMap`,
/// `recover` and `recoverWith` (`Sources/BrightFutures/AsyncType+ResultType.swift`). A queue becomes
/// `queue.context`; with none, `defaultContext()`, as in the adapter.
extension BrightFuturesAdapter {
    /// The four calls below, as ``PromiseAdapter/entryPoints``, for the suite to run its deep-chain clauses and the
    /// `then` clauses whose handlers fit through each of them as well as through the adapter's `then`.
    public var entryPoints: [EntryPoint<BrightFuture>] {
        let adopting: ResultKinds = [.value, .throw, .adopt, .assimilate]
        return [
            EntryPoint("map(_:)", handlers: .onFulfilled, results: .value, takesQueue: true, then: mapEntry),
            EntryPoint("flatMap(_:)", handlers: .onFulfilled, results: adopting, takesQueue: true, then: flatMapEntry),
            EntryPoint(
                "recover(context:).promoteError()", handlers: .onRejected, results: .value, takesQueue: true,
                then: recoverEntry),
            EntryPoint(
                "recoverWith(context:)", handlers: .onRejected, results: adopting, takesQueue: true,
                then: recoverWithEntry),
        ]
    }

    /// `map(_:f:)` (`AsyncType+ResultType.swift:100-110`): `future.map(context) { value in ... }`. The closure cannot
    /// throw or fail.
    ///
    /// - Handlers: onFulfilled only; a failure passes through.
    /// - Results: value.
    /// - Queue: yes.
    public func mapEntry(
        _ promise: BrightFuture, on queue: DispatchQueue?,
        onFulfilled: (@Sendable (Sentinel) -> HandlerResult<BrightFuture>)?,
        onRejected: (@Sendable (any Error) -> HandlerResult<BrightFuture>)?
    ) -> BrightFuture {
        if onRejected != nil { entryPointRefuses("BrightFutures map", "onRejected") }
        let derived = promise.future.map(queue?.context ?? defaultContext()) { (value: Sentinel) -> Sentinel in
            guard let onFulfilled else { return value }
            guard case .fulfill(let next) = onFulfilled(value) else {
                entryPointRefuses("BrightFutures map", "a result other than a value")
            }
            return next
        }
        return BrightFuture(future: derived)
    }

    /// `flatMap(_:f:)` (`AsyncType+ResultType.swift:60-62`, `map` then `flatten`): `future.flatMap(context) { value
    /// -> Future<Sentinel, any Error> in ... }`. A BrightFutures user fails by returning `Future(error:)`.
    ///
    /// - Handlers: onFulfilled only; a failure passes through.
    /// - Results: value (`Future(value:)`), throw (`Future(error:)`), adopt, assimilate (the suite's helper's future).
    /// - Queue: yes.
    public func flatMapEntry(
        _ promise: BrightFuture, on queue: DispatchQueue?,
        onFulfilled: (@Sendable (Sentinel) -> HandlerResult<BrightFuture>)?,
        onRejected: (@Sendable (any Error) -> HandlerResult<BrightFuture>)?
    ) -> BrightFuture {
        if onRejected != nil { entryPointRefuses("BrightFutures flatMap", "onRejected") }
        let derived = promise.future.flatMap(queue?.context ?? defaultContext()) {
            (value: Sentinel) -> Future<Sentinel, any Error> in
            guard let onFulfilled else { return Future(value: value) }
            return future(for: onFulfilled(value))
        }
        return BrightFuture(future: derived)
    }

    /// `recover(context:task:)` then `promoteError()` (`AsyncType+ResultType.swift:122-126`, `:232-245`):
    /// `future.recover(context: context) { error in ... }.promoteError()`, the closure returning a value; `recover`
    /// gives a future that cannot fail, which `promoteError()` turns back into one of `any Error`.
    ///
    /// - Handlers: onRejected only; a success passes through.
    /// - Results: value.
    /// - Queue: yes.
    public func recoverEntry(
        _ promise: BrightFuture, on queue: DispatchQueue?,
        onFulfilled: (@Sendable (Sentinel) -> HandlerResult<BrightFuture>)?,
        onRejected: (@Sendable (any Error) -> HandlerResult<BrightFuture>)?
    ) -> BrightFuture {
        if onFulfilled != nil { entryPointRefuses("BrightFutures recover", "onFulfilled") }
        guard let onRejected else { return promise }
        let recovered = promise.future.recover(context: queue?.context ?? defaultContext()) {
            (error: any Error) -> Sentinel in
            guard case .fulfill(let value) = onRejected(error) else {
                entryPointRefuses("BrightFutures recover", "a result other than a value")
            }
            return value
        }
        let derived: Future<Sentinel, any Error> = recovered.promoteError()
        return BrightFuture(future: derived)
    }

    /// `recoverWith(context:task:)` (`AsyncType+ResultType.swift:133-143`): `future.recoverWith(context: context) {
    /// error -> Future<Sentinel, any Error> in ... }`, which completes the new future with the returned one.
    ///
    /// - Handlers: onRejected only; a success passes through.
    /// - Results: value (`Future(value:)`), throw (`Future(error:)`), adopt, assimilate.
    /// - Queue: yes.
    public func recoverWithEntry(
        _ promise: BrightFuture, on queue: DispatchQueue?,
        onFulfilled: (@Sendable (Sentinel) -> HandlerResult<BrightFuture>)?,
        onRejected: (@Sendable (any Error) -> HandlerResult<BrightFuture>)?
    ) -> BrightFuture {
        if onFulfilled != nil { entryPointRefuses("BrightFutures recoverWith", "onFulfilled") }
        let derived = promise.future.recoverWith(context: queue?.context ?? defaultContext()) {
            (error: any Error) -> Future<Sentinel, any Error> in
            guard let onRejected else { return Future(error: error) }
            return future(for: onRejected(error))
        }
        return BrightFuture(future: derived)
    }

    /// The future a closure returns for what the handler asks for.
    private func future(for result: HandlerResult<BrightFuture>) -> Future<Sentinel, any Error> {
        switch result {
        case .fulfill(let value): Future(value: value)
        case .reject(let error): Future(error: error)
        case .adopt(let other): other.future
        case .assimilate(let thenable): assimilated(thenable).future
        }
    }
}
