import Dispatch
import PromiseConformance
import PromiseKitStyle

/// Plugs `PromiseKitStyle` into the conformance suite: a promise is a `Promise<Sentinel>`.
///
/// - `then` first turns the outcome into a `Guarantee<Result>` with handlers that run inline (`on: nil`), then runs
///   the matching handler in one `Guarantee.then(on:)` whose body returns a promise, so adoption, assimilation and
///   the `returnedSelf` check are PromiseKit's own. When the suite leaves the queue to the implementation, handlers
///   run on ``mainQueueStandIn``, a serial queue: PromiseKit's default, `conf.Q.map`, is the main queue, which a
///   command-line tool does not serve.
/// - A foreign thenable is presented as a PromiseKit `PromiseKitStyle.Thenable`, the protocol PromiseKit chains
///   through.
/// - `all` is `when(fulfilled:)`, `race` is `race(_:)`, `any` is `race(fulfilled:)`; cancellation is a rejection
///   with `PMKError.cancelled`.
public struct PromiseKitStyleAdapter: PromiseAdapter {
    /// A PromiseKit promise of a sentinel.
    public typealias Promise = PromiseKitStyle.Promise<Sentinel>

    /// Creates the adapter.
    public init() {}

    /// The column title: `PromiseKitStyle`.
    public var name: String { "PromiseKitStyle" }

    /// Everything: assimilation, `all`, `race`, `any` and cancellation.
    public var capabilities: Capabilities { [.assimilation, .all, .race, .any, .cancellation] }

    /// A pending promise and its resolver.
    public func pending() -> (
        promise: Promise, fulfill: @Sendable (Sentinel) -> Void, reject: @Sendable (any Error) -> Void
    ) {
        let (promise, resolver) = Promise.pending()
        return (promise, { resolver.fulfill($0) }, { resolver.reject($0) })
    }

    /// `Promise.value(_:)`.
    public func fulfilled(_ value: Sentinel) -> Promise { .value(value) }

    /// `Promise(error:)`.
    public func rejected(_ error: any Error) -> Promise { Promise(error: error) }

    /// The queue standing in for PromiseKit's default, `conf.Q.map` (the main queue, which is served only where the
    /// main thread serves it, and a test process need not do that): a serial queue, as the main queue is, so handlers
    /// the suite gives no queue run one at a time in the order of their `then` calls (A+ 2.2.6).
    /// Each adapter value has its own (made by `init()`), so that runs side by side, as tests in parallel, do not
    /// wait on each other's handlers.
    public let mainQueueStandIn = DispatchQueue(label: "PromiseKitStyleAdapter main queue stand-in")

    /// ``mainQueueStandIn``, for the generated programs' driver to flush between steps.
    public var defaultQueue: DispatchQueue? { mainQueueStandIn }

    /// The outcome as a guarantee, then one `then(on:)` that runs the matching handler.
    public func then(
        _ promise: Promise,
        on queue: DispatchQueue?,
        onFulfilled: (@Sendable (Sentinel) -> HandlerResult<Promise>)?,
        onRejected: (@Sendable (any Error) -> HandlerResult<Promise>)?
    ) -> Promise {
        let outcome: Guarantee<Result<Sentinel>> = promise.map(on: nil) { .fulfilled($0) }
            .recover(on: nil) { .value(.rejected($0)) }
        return outcome.then(on: queue ?? self.mainQueueStandIn) { result -> Promise in
            switch result {
            case .fulfilled(let value):
                guard let onFulfilled else { return .value(value) }
                return self.promise(for: onFulfilled(value))
            case .rejected(let error):
                guard let onRejected else { return Promise(error: error) }
                return self.promise(for: onRejected(error))
            }
        }
    }

    /// A promise that follows the thenable through PromiseKit's own `then`.
    public func assimilated(_ thenable: any PromiseConformance.Thenable) -> Promise {
        firstly { ForeignPromiseKitThenable(thenable) }
    }

    /// `when(fulfilled:)`.
    public func all(
        _ promises: [Promise], completion: @escaping @Sendable (Swift.Result<[Sentinel], any Error>) -> Void
    ) {
        when(fulfilled: promises).pipe { completion(Swift.Result($0)) }
    }

    /// `race(_:)`.
    public func race(_ promises: [Promise]) -> Promise { PromiseKitStyle.race(promises) }

    /// `race(fulfilled:)`, which rejects with `PMKError.noWinner` once every input rejects.
    public func any(_ promises: [Promise]) -> Promise { PromiseKitStyle.race(fulfilled: promises) }

    /// A pending promise rejected with `PMKError.cancelled` to cancel it.
    public func cancellablePending() -> (
        promise: Promise, fulfill: @Sendable (Sentinel) -> Void, cancel: @Sendable () -> Void
    ) {
        let (promise, resolver) = Promise.pending()
        return (promise, { resolver.fulfill($0) }, { resolver.reject(PMKError.cancelled) })
    }

    /// PromiseKit's own test: `error.isCancelled`.
    public func isCancellation(_ error: any Error) -> Bool { error.isCancelled }

    /// Each handler-taking method users write, with `on: nil` (the handler runs inline, on the thread that settles
    /// the promise) and with the queue the suite passes:
    ///
    /// - `then { value -> Promise }` and `recover { error -> Promise }`: a handler that returns a value (as
    ///   `.value(v)`), throws, or returns a promise or a thenable.
    /// - `map` and `compactMap`: a handler that returns a value or throws.
    /// - `get`, `tap` and `done`: observers, whose derived promise settles as the promise itself. `done` returns a
    ///   `Promise<Void>`, so its form settles a pending promise with the value inside the body, and with the error
    ///   in a `catch(on: nil, policy: .allErrors)` on the `done` promise.
    ///
    /// Not listed: `ensure` and `finally`, whose body sees no outcome, so no A+ handler maps onto it; the `Guarantee`
    /// forms, whose promise is another type than the adapter's `Promise<Sentinel>`.
    public var entryPoints: [EntryPoint<Promise>] {
        let adopting: ResultKinds = [.value, .throw, .adopt, .assimilate]
        return [false, true].flatMap { takesQueue -> [EntryPoint<Promise>] in
            let on = takesQueue ? "on: queue" : "on: nil"
            return [
                EntryPoint("then(\(on))", handlers: .onFulfilled, results: adopting, takesQueue: takesQueue) {
                    promise, queue, onFulfilled, _ in
                    promise.then(on: queue) { value in self.promise(for: onFulfilled?(value) ?? .fulfill(value)) }
                },
                EntryPoint("map(\(on))", handlers: .onFulfilled, results: [.value, .throw], takesQueue: takesQueue) {
                    promise, queue, onFulfilled, _ in
                    promise.map(on: queue) { value in try onFulfilled?(value).value() ?? value }
                },
                EntryPoint(
                    "compactMap(\(on))", handlers: .onFulfilled, results: [.value, .throw], takesQueue: takesQueue
                ) { promise, queue, onFulfilled, _ in
                    promise.compactMap(on: queue) { value -> Sentinel? in try onFulfilled?(value).value() ?? value }
                },
                EntryPoint("get(\(on))", handlers: .onFulfilled, results: .same, takesQueue: takesQueue) {
                    promise, queue, onFulfilled, _ in
                    promise.get(on: queue) { value in _ = onFulfilled?(value) }
                },
                EntryPoint(
                    "tap(\(on))", handlers: [.onFulfilled, .onRejected], results: .same, takesQueue: takesQueue
                ) { promise, queue, onFulfilled, onRejected in
                    promise.tap(on: queue) { result in
                        switch result {
                        case .fulfilled(let value): _ = onFulfilled?(value)
                        case .rejected(let error): _ = onRejected?(error)
                        }
                    }
                },
                EntryPoint("done(\(on))", handlers: .onFulfilled, results: .same, takesQueue: takesQueue) {
                    promise, queue, onFulfilled, _ in
                    let (derived, resolver) = Promise.pending()
                    promise.done(on: queue) { value in
                        _ = onFulfilled?(value)
                        resolver.fulfill(value)
                    }.catch(on: nil, policy: .allErrors) { resolver.reject($0) }
                    return derived
                },
                EntryPoint("recover(\(on))", handlers: .onRejected, results: adopting, takesQueue: takesQueue) {
                    promise, queue, _, onRejected in
                    promise.recover(on: queue) { error in self.promise(for: onRejected?(error) ?? .reject(error)) }
                },
            ]
        }
    }

    private func promise(for result: HandlerResult<Promise>) -> Promise {
        switch result {
        case .fulfill(let value): .value(value)
        case .reject(let error): Promise(error: error)
        case .adopt(let promise): promise
        case .assimilate(let thenable): assimilated(thenable)
        }
    }
}

/// A suite thenable seen as a PromiseKit `Thenable`: `pipe(to:)` runs the A+ procedure once and reports one result.
private final class ForeignPromiseKitThenable: PromiseKitStyle.Thenable, @unchecked Sendable {
    private let outcome: Guarantee<Swift.Result<Sentinel, any Error>>

    init(_ thenable: any PromiseConformance.Thenable) {
        let (guarantee, settle) = Guarantee<Swift.Result<Sentinel, any Error>>.pending()
        outcome = guarantee
        Assimilation.resolve(thenable, settle)
    }

    func pipe(to: @escaping (Result<Sentinel>) -> Void) {
        nonisolated(unsafe) let to = to  // `Promise(_:)`'s own handler, run once by the resolving thread
        outcome.done(on: nil) { to(Result($0)) }
    }

    var result: Result<Sentinel>? { outcome.value.map { Result($0) } }
}
