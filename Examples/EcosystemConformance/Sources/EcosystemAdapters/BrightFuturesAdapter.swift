import BrightFutures
import Dispatch
import Foundation
import PromiseConformance

/// BrightFutures' writable side of a future of a sentinel. At file scope, where `Promise` is still the library's class:
/// inside the adapter, `Promise` names the adapter's associated type.
private typealias SentinelPromise = BrightFutures.Promise<Sentinel, any Error>

/// BrightFutures' `Future` of a sentinel that fails with any error, in a wrapper the suite can pass between threads:
/// `Future` (a subclass of `Async`) guards its state with a private serial queue, but is not declared `Sendable`.
public struct BrightFuture: @unchecked Sendable {
    /// The library's future.
    public let future: Future<Sentinel, any Error>
}

/// Plugs BrightFutures' `Future` and `Promise` (8.2.0) into the conformance suite, written as its README shows: a
/// pending future is a `Promise`'s `future`, and `then` registers one `onComplete` callback whose result completes a
/// new `Promise`.
///
/// - BrightFutures has no single call taking both handlers of A+ `then` (`flatMap` passes on only a success,
///   `recoverWith` only a failure, and `flatMap` followed by `recoverWith` would hand the fulfilment handler's error to
///   the rejection handler), so `then` is the mechanism both are built on: `onComplete(context)` with a callback that
///   calls the matching handler and completes the derived `Promise` (`complete`), or hands it a returned future to
///   adopt (`completeWith`, the library's own adoption, which `flatMap` and `recoverWith` use too).
/// - A handler asked to run on a queue runs in that queue's execution context (`queue.context`, one `async` block per
///   callback); with no queue the library's default applies, `defaultContext()` (a global queue off the main thread).
/// - The suite's settle functions use `trySuccess` and `tryFailure`, since they may be called more than once: the
///   library's `success` and `failure` assert (a trap in a debug build) on a second completion.
/// - BrightFutures adopts only its own futures: assimilation uses the suite's ``Assimilation`` helper. `all` is
///   `Sequence.sequence()` and `race` is `Sequence.firstCompleted()`. There is no `any`, and no cancellation: an
///   `InvalidationToken` only keeps callbacks from running, and the README says it does not cancel the future.
public struct BrightFuturesAdapter: PromiseAdapter, Codable {
    /// The wrapper around BrightFutures' future.
    public typealias Promise = BrightFuture

    /// Creates the adapter.
    public init() {}

    /// The column title: `BrightFutures`.
    public var name: String { "BrightFutures" }

    /// Assimilation (through the suite's helper), `all` (`sequence()`) and `race` (`firstCompleted()`).
    public var capabilities: Capabilities { [.assimilation, .all, .race] }

    /// The library's default threading model off the main thread is a global queue, on which the handlers of one
    /// future are not kept in their registration order.
    public var concurrentDefaultScheduling: String? {
        "README.md:295-301 ('Default Threading Model': 'if the method is not called from the main thread, the block is "
            + "executed on a global queue'), Sources/BrightFutures/ExecutionContext.swift:68-73 (`defaultContext()`). "
            + "Each callback is its own `async` block on that global queue (Async.swift:104-123); the future's "
            + "`callbackExecutionSemaphore` runs them one at a time, but in whatever order the global queue's threads "
            + "reach it, not in the order of their `onComplete` calls."
    }

    /// Where BrightFutures departs from the suite's clauses by design, as its documentation says (BrightFutures 8.2.0,
    /// paths relative to its repository).
    public var deviations: [String: String] {
        let listOrder =
            "Sources/BrightFutures/SequenceType+BrightFutures.swift:73-79: `sequence()` is documented to fail \"with the "
            + "error of the first future that comes first in the list\" (line 75). It folds the inputs in list order "
            + "(`traverse`, then `fold`, lines 29 and 63-71: each step is a `flatMap` on the previous step's future), so "
            + "a rejection is reported only once every input before it in the list has completed, and the rejection of "
            + "an earlier input in the list wins over one that came first in time."
        return [
            "swift.combinator.all#one input rejects while others are pending": listOrder,
            "swift.combinator.all#the first of two rejections wins": listOrder,
        ]
    }

    /// A `Promise`'s future, completed with `trySuccess` and `tryFailure`.
    public func pending() -> (
        promise: BrightFuture, fulfill: @Sendable (Sentinel) -> Void, reject: @Sendable (any Error) -> Void
    ) {
        nonisolated(unsafe) let source = SentinelPromise()
        return (BrightFuture(future: source.future), { source.trySuccess($0) }, { source.tryFailure($0) })
    }

    /// `Future(value:)`.
    public func fulfilled(_ value: Sentinel) -> BrightFuture { BrightFuture(future: Future(value: value)) }

    /// `Future(error:)`.
    public func rejected(_ error: any Error) -> BrightFuture { BrightFuture(future: Future(error: error)) }

    /// One `onComplete` callback, in the queue's context or the default one, that runs the matching handler and
    /// completes a new `Promise` with what it returns.
    public func then(
        _ promise: BrightFuture, on queue: DispatchQueue?,
        onFulfilled: (@Sendable (Sentinel) -> HandlerResult<BrightFuture>)?,
        onRejected: (@Sendable (any Error) -> HandlerResult<BrightFuture>)?
    ) -> BrightFuture {
        let derived = SentinelPromise()
        let context: ExecutionContext = queue?.context ?? defaultContext()
        promise.future.onComplete(context) { outcome in
            switch outcome {
            case .success(let value):
                guard let onFulfilled else { return derived.complete(outcome) }
                settle(derived, with: onFulfilled(value))
            case .failure(let error):
                guard let onRejected else { return derived.complete(outcome) }
                settle(derived, with: onRejected(error))
            }
        }
        return BrightFuture(future: derived.future)
    }

    /// Completes `derived` as the handler asks: with a value or an error, or with a future it adopts.
    private func settle(_ derived: SentinelPromise, with result: HandlerResult<BrightFuture>) {
        switch result {
        case .fulfill(let value): derived.complete(.success(value))
        case .reject(let error): derived.complete(.failure(error))
        case .adopt(let other): derived.completeWith(other.future)
        case .assimilate(let thenable): derived.completeWith(assimilated(thenable).future)
        }
    }

    /// A `Promise`'s future completed with the thenable's outcome, by the suite's ``Assimilation`` helper.
    public func assimilated(_ thenable: any Thenable) -> BrightFuture {
        nonisolated(unsafe) let source = SentinelPromise()
        Assimilation.resolve(thenable) { source.tryComplete($0) }
        return BrightFuture(future: source.future)
    }

    /// `Sequence.sequence()`, whose outcome is handed to `completion` in the default context.
    public func all(_ promises: [BrightFuture], completion: @escaping @Sendable (Result<[Sentinel], any Error>) -> Void)
    {
        promises.map(\.future).sequence().onComplete(defaultContext()) { completion($0) }
    }

    /// `Sequence.firstCompleted()`.
    public func race(_ promises: [BrightFuture]) -> BrightFuture {
        BrightFuture(future: promises.map(\.future).firstCompleted())
    }

    /// `swift.release` watches the library's future, not the wrapper (which has no identity).
    public func lifetimeObject(of promise: BrightFuture) -> AnyObject? { promise.future }
}
