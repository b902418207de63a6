import Dispatch
import Hydra
import PromiseConformance

/// Hydra's promise class under a name of its own. Inside an adapter `Promise` is the suite's associated type, and
/// `Hydra.Promise` names nothing: the module `Hydra` also declares `public enum Hydra` (`Promise+Await.swift:88`),
/// which the qualified name finds first ("'Promise' is not a member type of enum 'Hydra.Hydra'").
typealias HydraPromiseClass<Value> = Promise<Value>

/// Hydra's `all` (`Promise+All.swift:47`), called from file scope: inside the adapter the name is its own `all`.
private func hydraAll(_ promises: [HydraPromiseClass<Sentinel>]) -> HydraPromiseClass<[Sentinel]> {
    all(promises)
}

/// Hydra's `any` (`Promise+Any.swift:52`), called from file scope for the same reason.
private func hydraAny(_ promises: [HydraPromiseClass<Sentinel>]) -> HydraPromiseClass<Sentinel> {
    any(promises)
}

/// The serial queue that stands in for `DispatchQueue.main`, Hydra's default context for `then`, `catch` and
/// `cancelled` (`Promise+Then.swift:49`, `Promise+Catch.swift:46`, `Promise+Cancel.swift:45`), which the suite never
/// serves.
private let hydraMainStandIn = DispatchQueue(label: "HydraAdapter.main-stand-in")

/// Hydra's `Promise` of a sentinel, in a wrapper the suite can pass between threads: the class guards its state with
/// a private serial queue (`stateQueue`), but is not declared `Sendable`.
public struct HydraPromise: @unchecked Sendable {
    /// The library's promise.
    public let promise: Promise<Sentinel>
}

/// What the adapter hands a rejection handler when a Hydra promise is cancelled: Hydra has no cancellation error, a
/// cancelled promise is in a third state (`Promise+State.swift:49`) that only `cancelled(in:)` observers see.
public struct HydraCancellation: Error, Hashable, Sendable {
    /// Creates the marker.
    public init() {}
}

/// Plugs malcommac/Hydra 2.0.6's `Promise` into the conformance suite, written with Hydra's public operators only.
///
/// - A pending promise is `Promise()` (`Promise.swift:119`), settled with its public `resolve(_:)` and `reject(_:)`;
///   settled ones are `Promise(resolved:)` and `Promise(rejected:)`.
/// - Hydra's `then` takes a fulfilment handler only, and its `catch` returns a `Promise<Void>`, so A+ `then` is built
///   in two steps: the source's three outcomes, seen through `then(in:)`, `catch(in:)` and `cancelled(in:)`, settle a
///   promise of a `Result` (cancelled when the source is cancelled and there is no rejection handler to tell); then one
///   Hydra `then(in:)` whose body returns a promise runs the matching handler, and Hydra adopts what it returns. A
///   handler's error is thrown from that body (Hydra rejects the chain with it).
/// - Every operator runs on the queue the suite asks for, as `Context.custom(queue:)`. With none, a serial queue of the
///   adapter stands in for `.main`, Hydra's default context of `then`, `catch` and `cancelled`, since the suite never
///   serves the main queue.
/// - Hydra has no notion of a foreign thenable, so assimilation uses the suite's ``Assimilation`` helper. `all` is
///   Hydra's `all`; `race` is Hydra's `any`, which "resolves as soon as one passed from list resolves" and "also
///   reject[s] as soon as a promise reject[s]" (README, "All Features"): the first input to settle, a race. Hydra has
///   no combinator that waits for the first fulfilment past rejections, so `.any` is not declared.
/// - Cancellation is Hydra's own: `Promise.cancel()` (`Promise.swift:188`) puts the promise in its `cancelled` state,
///   as a body's `operation.cancel()` does (`Promise.swift:71-75`); each operator passes it down the chain. Hydra's
///   `InvalidationToken` (`Commons.swift:71`) only raises a flag that a promise's body polls, and settles nothing by
///   itself. A cancelled promise calls no `then` nor `catch` handler, only `cancelled(in:)` ones: the adapter hands
///   the suite's rejection handler a ``HydraCancellation`` then.
public struct HydraAdapter: PromiseAdapter, Codable {
    /// The wrapper around Hydra's `Promise`.
    public typealias Promise = HydraPromise

    /// Creates the adapter.
    public init() {}

    /// The column title: `Hydra`.
    public var name: String { "Hydra" }

    /// Assimilation (through the suite's helper), `all`, `race` (Hydra's `any`) and cancellation.
    public var capabilities: Capabilities { [.assimilation, .all, .race, .cancellation] }

    /// The stand-in for `.main`, for the generated programs' driver to flush between steps.
    public var defaultQueue: DispatchQueue? { hydraMainStandIn }

    /// The Hydra context a handler runs in: the queue asked for, or the stand-in for `.main`.
    static func context(_ queue: DispatchQueue?) -> Context {
        .custom(queue: queue ?? hydraMainStandIn)
    }

    /// `Promise()`, with its `resolve(_:)` and `reject(_:)`.
    public func pending() -> (
        promise: HydraPromise, fulfill: @Sendable (Sentinel) -> Void, reject: @Sendable (any Error) -> Void
    ) {
        let pending = HydraPromise(promise: HydraPromiseClass<Sentinel>())
        return (pending, { pending.promise.resolve($0) }, { pending.promise.reject($0) })
    }

    /// `Promise(resolved:)`.
    public func fulfilled(_ value: Sentinel) -> HydraPromise {
        HydraPromise(promise: HydraPromiseClass(resolved: value))
    }

    /// `Promise(rejected:)`.
    public func rejected(_ error: any Error) -> HydraPromise {
        HydraPromise(promise: HydraPromiseClass(rejected: error))
    }

    /// The source's outcome as a promise of a `Result`, then one Hydra `then` that runs the matching handler.
    public func then(
        _ promise: HydraPromise, on queue: DispatchQueue?,
        onFulfilled: (@Sendable (Sentinel) -> HandlerResult<HydraPromise>)?,
        onRejected: (@Sendable (any Error) -> HandlerResult<HydraPromise>)?
    ) -> HydraPromise {
        let context = Self.context(queue)
        let outcome = OutcomeBox(promise: HydraPromiseClass<Result<Sentinel, any Error>>())
        let source = promise.promise
        let _: HydraPromiseClass<Sentinel> = source.then(in: context) { (value: Sentinel) -> Void in
            outcome.promise.resolve(.success(value))
        }
        source.catch(in: context) { error in outcome.promise.resolve(.failure(error)) }
        source.cancelled(in: context) {
            if onRejected == nil {
                outcome.promise.cancel()
            } else {
                outcome.promise.resolve(.failure(HydraCancellation()))
            }
        }
        let derived: HydraPromiseClass<Sentinel> = outcome.promise.then(in: context) {
            result -> HydraPromiseClass<Sentinel> in
            switch result {
            case .success(let value):
                guard let onFulfilled else { return HydraPromiseClass(resolved: value) }
                return try hydraPromise(onFulfilled(value))
            case .failure(let error):
                guard let onRejected else { return HydraPromiseClass(rejected: error) }
                return try hydraPromise(onRejected(error))
            }
        }
        return HydraPromise(promise: derived)
    }

    /// What a handler asked for, as the promise a Hydra `then` body returns (or throws).
    func hydraPromise(_ result: HandlerResult<HydraPromise>) throws -> HydraPromiseClass<Sentinel> {
        switch result {
        case .fulfill(let value): return HydraPromiseClass(resolved: value)
        case .reject(let error): throw error
        case .adopt(let other): return other.promise
        case .assimilate(let thenable): return assimilated(thenable).promise
        }
    }

    /// A `Promise()` settled by the suite's ``Assimilation`` helper.
    public func assimilated(_ thenable: any Thenable) -> HydraPromise {
        let pending = pending()
        Assimilation.resolve(thenable) { outcome in
            switch outcome {
            case .success(let value): pending.fulfill(value)
            case .failure(let error): pending.reject(error)
            }
        }
        return pending.promise
    }

    /// Hydra's `all`, observed with `then`, `catch` and `cancelled` (which also start its lazy body).
    public func all(
        _ promises: [HydraPromise], completion: @escaping @Sendable (Result<[Sentinel], any Error>) -> Void
    ) {
        let context = Self.context(nil)
        let combined = hydraAll(promises.map(\.promise))
        let _: HydraPromiseClass<[Sentinel]> = combined.then(in: context) { (values: [Sentinel]) -> Void in
            completion(.success(values))
        }
        combined.catch(in: context) { error in completion(.failure(error)) }
        combined.cancelled(in: context) { completion(.failure(HydraCancellation())) }
    }

    /// Hydra's `any`: the first input to settle.
    public func race(_ promises: [HydraPromise]) -> HydraPromise {
        HydraPromise(promise: hydraAny(promises.map(\.promise)))
    }

    /// `Promise()`, with `resolve(_:)` and `cancel()`.
    public func cancellablePending() -> (
        promise: HydraPromise, fulfill: @Sendable (Sentinel) -> Void, cancel: @Sendable () -> Void
    ) {
        let pending = HydraPromise(promise: HydraPromiseClass<Sentinel>())
        return (pending, { pending.promise.resolve($0) }, { pending.promise.cancel() })
    }

    /// ``HydraCancellation``, what the adapter hands a rejection handler for a cancelled promise.
    public func isCancellation(_ error: any Error) -> Bool { error is HydraCancellation }

    /// `swift.release` watches Hydra's promise, not the wrapper (which has no identity).
    public func lifetimeObject(of promise: HydraPromise) -> AnyObject? { promise.promise }
}

/// The intermediate promise of a `Result` that `then` settles from the source's outcome, passed to Hydra's
/// (non-`Sendable`) observer closures.
private struct OutcomeBox: @unchecked Sendable {
    let promise: HydraPromiseClass<Result<Sentinel, any Error>>
}
