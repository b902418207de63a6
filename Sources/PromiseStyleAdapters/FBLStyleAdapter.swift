import Dispatch
import FBLStyle
import PromiseConformance

/// Plugs `FBLStyle` into the conformance suite: a promise is a `Promise<Sentinel>`.
///
/// - `then` turns the outcome into a promise of a `Result`, then runs the matching handler in one Google `then`
///   whose block returns a promise, so adoption and the cycle check (A+ 2.3.1) are the library's own. When the suite
///   leaves the queue to the implementation, blocks run on ``mainQueueStandIn``, a serial queue: Google's default,
///   `DispatchQueue.promises`, is the main queue, which a command-line tool does not serve.
/// - A foreign thenable is wrapped the Google way, with the async initializer `Promise { fulfill, reject in ... }`.
/// - `all` is `all(_:)` and `race` is `race(_:)`; Google's `any` waits for every input and fulfils with `Maybe`
///   values, so the suite's `any` is not offered. Cancellation is a rejection with Swift's `CancellationError`, the
///   one FBLStyle uses for a cancelled `async` operation.
public struct FBLStyleAdapter: PromiseAdapter {
    /// A Google-style promise of a sentinel.
    public typealias Promise = FBLStyle.Promise<Sentinel>

    /// Creates the adapter.
    public init() {}

    /// The column title: `FBLStyle`.
    public var name: String { "FBLStyle" }

    /// Assimilation, `all`, `race` and cancellation.
    public var capabilities: Capabilities { [.assimilation, .all, .race, .cancellation] }

    /// `Promise.pending()` with its `fulfill` and `reject`.
    public func pending() -> (
        promise: Promise, fulfill: @Sendable (Sentinel) -> Void, reject: @Sendable (any Error) -> Void
    ) {
        let promise = Promise.pending()
        return (promise, { promise.fulfill($0) }, { promise.reject($0) })
    }

    /// `Promise(value)`.
    public func fulfilled(_ value: Sentinel) -> Promise { Promise(value) }

    /// `Promise(error)`.
    public func rejected(_ error: any Error) -> Promise { Promise(error) }

    /// The outcome as a promise of a `Result` (a value-returning `then` and `recover`), then one `then` whose block
    /// runs the matching handler and returns a promise, so adoption and the cycle check are Google's own.
    public func then(
        _ promise: Promise,
        on queue: DispatchQueue?,
        onFulfilled: (@Sendable (Sentinel) -> HandlerResult<Promise>)?,
        onRejected: (@Sendable (any Error) -> HandlerResult<Promise>)?
    ) -> Promise {
        let queue = queue ?? self.mainQueueStandIn
        let outcome = promise.then(on: queue) { value -> Result<Sentinel, any Error> in .success(value) }
            .recover(on: queue) { error -> Result<Sentinel, any Error> in .failure(error) }
        return outcome.then(on: queue) { result -> Promise in
            switch result {
            case .success(let value):
                guard let onFulfilled else { return Promise(value) }
                return self.promise(for: onFulfilled(value))
            case .failure(let error):
                guard let onRejected else { return Promise(error) }
                return self.promise(for: onRejected(error))
            }
        }
    }

    /// The async initializer, settled by the thenable's first callback.
    public func assimilated(_ thenable: any Thenable) -> Promise {
        Promise(on: .global()) { fulfill, reject in
            // Plain functions here (they are `@Sendable` under the trait CheckedHandlers): the thenable calls back on any
            // thread, and the promise resolves under its lock.
            nonisolated(unsafe) let (fulfill, reject): ((Sentinel) -> Void, (any Error) -> Void) = (fulfill, reject)
            Assimilation.resolve(thenable) { outcome in
                switch outcome {
                case .success(let value): fulfill(value)
                case .failure(let error): reject(error)
                }
            }
        }
    }

    /// The queue standing in for Google's default, `DispatchQueue.promises` (the main queue, which is served only
    /// where the main thread serves it, and a test process need not do that): a serial queue, as the main queue is.
    /// Handlers the suite gives no queue run on it, one at a time in the order of their `then` calls (A+ 2.2.6), and
    /// `all` and `race` observe their inputs on it, so that of the inputs settled when the combinator is made, the
    /// first in input order comes first (on a concurrent queue their observers run at once and any of them may win).
    /// Each adapter value has its own (made by `init()`), so that runs side by side, as tests in parallel, do not
    /// wait on each other's handlers.
    public let mainQueueStandIn = DispatchQueue(label: "FBLStyleAdapter main queue stand-in")

    /// ``mainQueueStandIn``, for the generated programs' driver to flush between steps.
    public var defaultQueue: DispatchQueue? { mainQueueStandIn }

    /// `all(_:)`.
    public func all(_ promises: [Promise], completion: @escaping @Sendable (Result<[Sentinel], any Error>) -> Void) {
        FBLStyle.all(on: self.mainQueueStandIn, promises)
            .then(on: .global()) { completion(.success($0)) }
            .catch(on: .global()) { completion(.failure($0)) }
    }

    /// `race(_:)`.
    public func race(_ promises: [Promise]) -> Promise { FBLStyle.race(on: self.mainQueueStandIn, promises) }

    /// A pending promise rejected with `CancellationError` to cancel it.
    public func cancellablePending() -> (
        promise: Promise, fulfill: @Sendable (Sentinel) -> Void, cancel: @Sendable () -> Void
    ) {
        let promise = Promise.pending()
        return (promise, { promise.fulfill($0) }, { promise.reject(CancellationError()) })
    }

    /// Swift's `CancellationError`.
    public func isCancellation(_ error: any Error) -> Bool { error is CancellationError }

    /// Each handler-taking method users write, with the queue the suite passes (`on:`; with none,
    /// ``mainQueueStandIn``, as for `then`):
    ///
    /// - `then { value -> Promise }` and `recover { error -> Promise }`: a handler that returns a value (as
    ///   `Promise(v)`), throws, or returns a promise or a thenable.
    /// - `then { value -> Value }` and `recover { error -> Value }`: a handler that returns a value or throws.
    /// - `then { value in }` and `catch`: observers, whose derived promise settles as the promise itself.
    ///
    /// Not listed: `always`, whose body sees no outcome, so no A+ handler maps onto it.
    public var entryPoints: [EntryPoint<Promise>] {
        let adopting: ResultKinds = [.value, .throw, .adopt, .assimilate]
        return [
            EntryPoint("then(on:) { value -> Promise }", handlers: .onFulfilled, results: adopting, takesQueue: true) {
                promise, queue, onFulfilled, _ in
                promise.then(on: queue ?? self.mainQueueStandIn) { value -> Promise in
                    self.promise(for: onFulfilled?(value) ?? .fulfill(value))
                }
            },
            EntryPoint(
                "then(on:) { value -> Value }", handlers: .onFulfilled, results: [.value, .throw], takesQueue: true
            ) { promise, queue, onFulfilled, _ in
                promise.then(on: queue ?? self.mainQueueStandIn) { value -> Sentinel in
                    try onFulfilled?(value).value() ?? value
                }
            },
            EntryPoint("then(on:) { value in }", handlers: .onFulfilled, results: .same, takesQueue: true) {
                promise, queue, onFulfilled, _ in
                promise.then(on: queue ?? self.mainQueueStandIn) { (value: Sentinel) -> Void in _ = onFulfilled?(value)
                }
            },
            EntryPoint("recover(on:) { error -> Promise }", handlers: .onRejected, results: adopting, takesQueue: true)
            {
                promise, queue, _, onRejected in
                promise.recover(on: queue ?? self.mainQueueStandIn) { error -> Promise in
                    self.promise(for: onRejected?(error) ?? .reject(error))
                }
            },
            EntryPoint(
                "recover(on:) { error -> Value }", handlers: .onRejected, results: [.value, .throw], takesQueue: true
            ) { promise, queue, _, onRejected in
                promise.recover(on: queue ?? self.mainQueueStandIn) { error -> Sentinel in
                    guard let onRejected else { throw error }
                    return try onRejected(error).value()
                }
            },
            EntryPoint("catch(on:)", handlers: .onRejected, results: .same, takesQueue: true) {
                promise, queue, _, onRejected in
                promise.catch(on: queue ?? self.mainQueueStandIn) { error in _ = onRejected?(error) }
            },
        ]
    }

    private func promise(for result: HandlerResult<Promise>) -> Promise {
        switch result {
        case .fulfill(let value): Promise(value)
        case .reject(let error): Promise(error)
        case .adopt(let promise): promise
        case .assimilate(let thenable): assimilated(thenable)
        }
    }
}
