import Dispatch
import PromiseConformance
import When

/// When's promise class under a name of its own: inside an adapter `Promise` is the suite's associated type.
typealias WhenPromiseClass<T> = Promise<T>

/// When's `when(_:)` over an array (`Sources/Functions.swift:21`), called from file scope.
private func whenAll(_ promises: [WhenPromiseClass<Sentinel>]) -> WhenPromiseClass<[Sentinel]> {
    when(promises)
}

/// The serial queue that stands in for `DispatchQueue.main`, When's default queue for a promise and for `then` and
/// `recover` (`Sources/Promise.swift:34`, `:186`, `:246`), which the suite never serves.
let whenMainStandIn = DispatchQueue(label: "WhenAdapter.main-stand-in")

/// When's `Promise` of a sentinel, in a wrapper the suite can pass between threads: the class is not declared
/// `Sendable`.
public struct WhenPromise: @unchecked Sendable {
    /// The library's promise.
    public let promise: Promise<Sentinel>
}

/// Plugs vadymmarkov/When (commit a0811be, after 5.0.0) into the conformance suite, written with When's public API.
///
/// - A pending promise is `Promise(queue:)`, settled with `resolve(_:)` and `reject(_:)`; settled ones are
///   `Promise(queue:state:)` with `.resolved(value:)` or `.rejected(error:)`.
/// - When has no `then` with two handlers: `then(on:)` takes a fulfilment handler and `recover(on:)` a rejection
///   handler. With one handler the adapter calls that one operator. With both, the A+ rule that `onRejected` never
///   sees `onFulfilled`'s error is kept by turning the outcome into a `Result` first (`then(on:)`, then
///   `recover(on:)`), and one more `then(on:)` runs the matching handler. Every handler returns a promise, and When
///   adopts it (`then(on:)`'s `Promise<U>` overload); a handler's error is thrown (When rejects with it).
/// - Every promise and handler runs on the queue the suite asks for. With none, a serial queue of the adapter stands
///   in for `.main`, When's default queue for promises, `then` and `recover`, since the suite never serves the main
///   queue. When keeps a promise's state unguarded and updates it on the promise's queue, which a serial queue keeps
///   one update at a time, as `.main` would.
/// - When has no notion of a foreign thenable, so assimilation uses the suite's ``Assimilation`` helper. `all` is
///   When's `when(_:)` over an array; When has no race nor any.
/// - Cancellation is When's own: `cancel()` rejects the promise with `PromiseError.cancelled` (`Promise.swift:96`).
public struct WhenAdapter: PromiseAdapter, Codable {
    /// The wrapper around When's `Promise`.
    public typealias Promise = WhenPromise

    /// Creates the adapter.
    public init() {}

    /// The column title: `When`.
    public var name: String { "When" }

    /// Assimilation (through the suite's helper), `all` (`when(_:)`) and cancellation (`cancel()`).
    public var capabilities: Capabilities { [.assimilation, .all, .cancellation] }

    /// The stand-in for `.main`, for the generated programs' driver to flush between steps.
    public var defaultQueue: DispatchQueue? { whenMainStandIn }

    /// `Promise(queue:)` on the stand-in for `.main`, with its `resolve(_:)` and `reject(_:)`.
    public func pending() -> (
        promise: WhenPromise, fulfill: @Sendable (Sentinel) -> Void, reject: @Sendable (any Error) -> Void
    ) {
        let pending = WhenPromise(promise: WhenPromiseClass<Sentinel>(queue: whenMainStandIn))
        return (pending, { pending.promise.resolve($0) }, { pending.promise.reject($0) })
    }

    /// `Promise(queue:state: .resolved(value:))`.
    public func fulfilled(_ value: Sentinel) -> WhenPromise {
        WhenPromise(promise: WhenPromiseClass(queue: whenMainStandIn, state: .resolved(value: value)))
    }

    /// `Promise(queue:state: .rejected(error:))`.
    public func rejected(_ error: any Error) -> WhenPromise {
        WhenPromise(promise: WhenPromiseClass(queue: whenMainStandIn, state: .rejected(error: error)))
    }

    /// `then(on:)` for `onFulfilled`, `recover(on:)` for `onRejected`; both through a `Result` when both are given.
    public func then(
        _ promise: WhenPromise, on queue: DispatchQueue?,
        onFulfilled: (@Sendable (Sentinel) -> HandlerResult<WhenPromise>)?,
        onRejected: (@Sendable (any Error) -> HandlerResult<WhenPromise>)?
    ) -> WhenPromise {
        let queue = queue ?? whenMainStandIn
        let source = promise.promise
        let derived: WhenPromiseClass<Sentinel>
        switch (onFulfilled, onRejected) {
        case (nil, nil):
            derived = source.then(on: queue) { (value: Sentinel) -> Sentinel in value }
        case (let onFulfilled?, nil):
            derived = source.then(on: queue) { value -> WhenPromiseClass<Sentinel> in
                try whenPromise(onFulfilled(value), on: queue)
            }
        case (nil, let onRejected?):
            derived = source.recover(on: queue) { error -> WhenPromiseClass<Sentinel> in
                try whenPromise(onRejected(error), on: queue)
            }
        case (let onFulfilled?, let onRejected?):
            let outcome = source.then(on: queue) { value -> Result<Sentinel, any Error> in .success(value) }
                .recover(on: queue) { error -> Result<Sentinel, any Error> in .failure(error) }
            derived = outcome.then(on: queue) { result -> WhenPromiseClass<Sentinel> in
                switch result {
                case .success(let value): try whenPromise(onFulfilled(value), on: queue)
                case .failure(let error): try whenPromise(onRejected(error), on: queue)
                }
            }
        }
        return WhenPromise(promise: derived)
    }

    /// What a handler asked for, as the promise a When `then` or `recover` body returns (or throws).
    private func whenPromise(
        _ result: HandlerResult<WhenPromise>, on queue: DispatchQueue
    ) throws -> WhenPromiseClass<Sentinel> {
        switch result {
        case .fulfill(let value): return WhenPromiseClass(queue: queue, state: .resolved(value: value))
        case .reject(let error): throw error
        case .adopt(let other): return other.promise
        case .assimilate(let thenable): return assimilated(thenable).promise
        }
    }

    /// A pending promise settled by the suite's ``Assimilation`` helper.
    public func assimilated(_ thenable: any Thenable) -> WhenPromise {
        let pending = pending()
        Assimilation.resolve(thenable) { outcome in
            switch outcome {
            case .success(let value): pending.fulfill(value)
            case .failure(let error): pending.reject(error)
            }
        }
        return pending.promise
    }

    /// When's `when(_:)`, observed with `then(on:)` and `recover(on:)`.
    ///
    /// `then(on:)` and `recover(on:)` see the outcome even when `when(_:)` settled before they were registered (an
    /// empty input is resolved at once), where `done`, `fail` and `always` would miss it: those only run when the
    /// promise settles after they were added (`Promise.swift:105-172`). `when(_:)` makes its promise with
    /// `Promise<[T]>()`, on `.main` (`Functions.swift:22`): it only settles when the main queue is served (the `run`
    /// command serves it).
    public func all(
        _ promises: [WhenPromise], completion: @escaping @Sendable (Result<[Sentinel], any Error>) -> Void
    ) {
        _ = whenAll(promises.map(\.promise))
            .then(on: whenMainStandIn) { (values: [Sentinel]) -> Void in completion(.success(values)) }
            .recover(on: whenMainStandIn) { (error: any Error) -> Void in completion(.failure(error)) }
    }

    /// `Promise(queue:)` on the stand-in for `.main`, with `resolve(_:)` and `cancel()`.
    public func cancellablePending() -> (
        promise: WhenPromise, fulfill: @Sendable (Sentinel) -> Void, cancel: @Sendable () -> Void
    ) {
        let pending = WhenPromise(promise: WhenPromiseClass<Sentinel>(queue: whenMainStandIn))
        return (pending, { pending.promise.resolve($0) }, { pending.promise.cancel() })
    }

    /// When's `PromiseError.cancelled`, the error `cancel()` rejects with.
    public func isCancellation(_ error: any Error) -> Bool {
        if case PromiseError.cancelled = error { true } else { false }
    }

    /// `swift.release` watches When's promise, not the wrapper (which has no identity).
    public func lifetimeObject(of promise: WhenPromise) -> AnyObject? { promise.promise }
}
