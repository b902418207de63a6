import Dispatch
import PromiseConformance
@preconcurrency import ReactiveSwift

/// ReactiveSwift's operators as its users transform a one-shot producer, each with the signature of
/// ``ReactiveSwiftAdapter/then(_:on:onFulfilled:onRejected:)`` (see `EntryPointSupport.swift`). The adapter's own
/// `then` materializes the first event into a `Result` and `flatMap`s it; these apply one operator to the promise's
/// producer. Each derived producer is shared and started at once, as the adapter's promises are. A queue is
/// `observe(on: QueueScheduler(targeting: queue))` before the operator; with none, events are delivered synchronously,
/// ReactiveSwift's default.
extension ReactiveSwiftAdapter {
    /// The four operators below, as ``PromiseAdapter/entryPoints``, for the suite to run its deep-chain clauses and
    /// the `then` clauses whose handlers fit through each of them as well as through the adapter's `then`.
    public var entryPoints: [EntryPoint<ReactivePromise>] {
        let adopting: ResultKinds = [.value, .throw, .adopt, .assimilate]
        return [
            EntryPoint("map(_:)", handlers: .onFulfilled, results: .value, takesQueue: true, then: mapEntry),
            EntryPoint(
                "attemptMap(_:)", handlers: .onFulfilled, results: [.value, .throw], takesQueue: true,
                then: attemptMapEntry),
            EntryPoint(
                "flatMap(.concat, _:)", handlers: .onFulfilled, results: adopting, takesQueue: true, then: flatMapEntry),
            EntryPoint(
                "flatMapError(_:)", handlers: .onRejected, results: adopting, takesQueue: true,
                then: flatMapErrorEntry),
        ]
    }

    /// `map(_:)` (`Sources/SignalProducer.swift:924-926`): `producer.map { value in ... }`. The transform cannot fail.
    ///
    /// - Handlers: onFulfilled only; a failure passes through.
    /// - Results: value.
    /// - Queue: yes.
    public func mapEntry(
        _ promise: ReactivePromise, on queue: DispatchQueue?,
        onFulfilled: (@Sendable (Sentinel) -> HandlerResult<ReactivePromise>)?,
        onRejected: (@Sendable (any Error) -> HandlerResult<ReactivePromise>)?
    ) -> ReactivePromise {
        if onRejected != nil { entryPointRefuses("ReactiveSwift map", "onRejected") }
        let mapped = Self.scheduled(promise.producer, on: queue).map { (value: Sentinel) -> Sentinel in
            guard let onFulfilled else { return value }
            guard case .fulfill(let next) = onFulfilled(value) else {
                entryPointRefuses("ReactiveSwift map", "a result other than a value")
            }
            return next
        }
        return Self.shared(mapped)
    }

    /// `attemptMap(_:)` (`Sources/SignalProducer.swift:1987-1989`): `producer.attemptMap { value in ... }`, the
    /// transform returning a value or throwing.
    ///
    /// - Handlers: onFulfilled only; a failure passes through.
    /// - Results: value, throw.
    /// - Queue: yes.
    public func attemptMapEntry(
        _ promise: ReactivePromise, on queue: DispatchQueue?,
        onFulfilled: (@Sendable (Sentinel) -> HandlerResult<ReactivePromise>)?,
        onRejected: (@Sendable (any Error) -> HandlerResult<ReactivePromise>)?
    ) -> ReactivePromise {
        if onRejected != nil { entryPointRefuses("ReactiveSwift attemptMap", "onRejected") }
        let mapped = Self.scheduled(promise.producer, on: queue).attemptMap { (value: Sentinel) throws -> Sentinel in
            guard let onFulfilled else { return value }
            switch onFulfilled(value) {
            case .fulfill(let next): return next
            case .reject(let error): throw error
            case .adopt: entryPointRefuses("ReactiveSwift attemptMap", "adopt")
            case .assimilate: entryPointRefuses("ReactiveSwift attemptMap", "assimilate")
            }
        }
        return Self.shared(mapped)
    }

    /// `flatMap(.concat, _:)` (`Sources/Flatten.swift:1086-1088`): `producer.flatMap(.concat) { value in ... }`, the
    /// transform returning the producer whose events follow.
    ///
    /// - Handlers: onFulfilled only; a failure passes through.
    /// - Results: value (`SignalProducer(value:)`), throw (`SignalProducer(error:)`), adopt (the other promise's
    ///   producer), assimilate (the suite's helper's producer).
    /// - Queue: yes.
    public func flatMapEntry(
        _ promise: ReactivePromise, on queue: DispatchQueue?,
        onFulfilled: (@Sendable (Sentinel) -> HandlerResult<ReactivePromise>)?,
        onRejected: (@Sendable (any Error) -> HandlerResult<ReactivePromise>)?
    ) -> ReactivePromise {
        if onRejected != nil { entryPointRefuses("ReactiveSwift flatMap", "onRejected") }
        let mapped = Self.scheduled(promise.producer, on: queue).flatMap(.concat) {
            (value: Sentinel) -> SignalProducer<Sentinel, any Error> in
            guard let onFulfilled else { return SignalProducer(value: value) }
            return inner(for: onFulfilled(value))
        }
        return Self.shared(mapped)
    }

    /// `flatMapError(_:)` (`Sources/Flatten.swift:1244-1246`): `producer.flatMapError { error in ... }`, the transform
    /// returning the producer whose events replace the failure.
    ///
    /// - Handlers: onRejected only; a value passes through.
    /// - Results: value, throw, adopt, assimilate, as for ``flatMapEntry(_:on:onFulfilled:onRejected:)``.
    /// - Queue: yes.
    public func flatMapErrorEntry(
        _ promise: ReactivePromise, on queue: DispatchQueue?,
        onFulfilled: (@Sendable (Sentinel) -> HandlerResult<ReactivePromise>)?,
        onRejected: (@Sendable (any Error) -> HandlerResult<ReactivePromise>)?
    ) -> ReactivePromise {
        if onFulfilled != nil { entryPointRefuses("ReactiveSwift flatMapError", "onFulfilled") }
        let recovered = Self.scheduled(promise.producer, on: queue).flatMapError {
            (error: any Error) -> SignalProducer<Sentinel, any Error> in
            guard let onRejected else { return SignalProducer(error: error) }
            return inner(for: onRejected(error))
        }
        return Self.shared(recovered)
    }

    /// `producer`, delivering on `queue` when one is given.
    private static func scheduled(
        _ producer: SignalProducer<Sentinel, any Error>, on queue: DispatchQueue?
    ) -> SignalProducer<Sentinel, any Error> {
        guard let queue else { return producer }
        return producer.observe(on: QueueScheduler(targeting: queue))
    }

    /// The inner producer for what the handler asks for.
    private func inner(for result: HandlerResult<ReactivePromise>) -> SignalProducer<Sentinel, any Error> {
        switch result {
        case .fulfill(let value): SignalProducer(value: value)
        case .reject(let error): SignalProducer(error: error)
        case .adopt(let other): other.producer
        case .assimilate(let thenable): assimilated(thenable).producer
        }
    }
}
