import Dispatch
import FBLStyle
import PromiseConformance

/// Plugs ``FBLStyle`` into the conformance suite: a promise is a `Promise<Sentinel>`.
///
/// - `then` is Google's `then` (whose block returns a promise, so adoption is the library's own) followed by
///   `recover`; an error thrown by `onFulfilled` is carried past `onRejected` in a private wrapper, since A+ asks that
///   a handler's failure reject the derived promise without reaching the sibling handler. When the suite leaves the
///   queue to the implementation, blocks run on a global queue: Google's default, `DispatchQueue.promises`, is the
///   main queue, which a command-line tool does not serve.
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

    /// Where Google's Promises departs from Promises/A+ on purpose.
    public var deviations: [String: String] {
        [
            "2.3.1":
                "A block that returns the very promise its then returned is not detected: the promise observes "
                + "itself and stays pending forever, as FBLPromise does (it has no cycle check)."
        ]
    }

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

    /// `then` for the fulfilment, `recover` for the rejection.
    public func then(
        _ promise: Promise,
        on queue: DispatchQueue?,
        onFulfilled: (@Sendable (Sentinel) -> HandlerResult<Promise>)?,
        onRejected: (@Sendable (any Error) -> HandlerResult<Promise>)?
    ) -> Promise {
        let queue = queue ?? .global()
        let fulfilled = promise.then(on: queue) { value -> Promise in
            guard let onFulfilled else { return Promise(value) }
            return self.promise(for: onFulfilled(value)).recover(on: queue) { error -> Promise in
                throw HandledFailure(error: error)
            }
        }
        return fulfilled.recover(on: queue) { error -> Promise in
            if let handled = error as? HandledFailure { throw handled.error }
            guard let onRejected else { throw error }
            return self.promise(for: onRejected(error))
        }
    }

    /// The async initializer, settled by the thenable's first callback.
    public func assimilated(_ thenable: any Thenable) -> Promise {
        Promise(on: .global()) { fulfill, reject in
            nonisolated(unsafe) let (fulfill, reject) = (fulfill, reject)
            ForeignThenable.resolve(thenable) { outcome in
                switch outcome {
                case .success(let value): fulfill(value)
                case .failure(let error): reject(error)
                }
            }
        }
    }

    /// `all(_:)`.
    public func all(_ promises: [Promise], completion: @escaping @Sendable (Result<[Sentinel], any Error>) -> Void) {
        FBLStyle.all(on: .global(), promises)
            .then(on: .global()) { completion(.success($0)) }
            .catch(on: .global()) { completion(.failure($0)) }
    }

    /// `race(_:)`.
    public func race(_ promises: [Promise]) -> Promise { FBLStyle.race(on: .global(), promises) }

    /// A pending promise rejected with `CancellationError` to cancel it.
    public func cancellablePending() -> (
        promise: Promise, fulfill: @Sendable (Sentinel) -> Void, cancel: @Sendable () -> Void
    ) {
        let promise = Promise.pending()
        return (promise, { promise.fulfill($0) }, { promise.reject(CancellationError()) })
    }

    /// Swift's `CancellationError`.
    public func isCancellation(_ error: any Error) -> Bool { error is CancellationError }

    private func promise(for result: HandlerResult<Promise>) -> Promise {
        switch result {
        case .fulfill(let value): Promise(value)
        case .reject(let error): Promise(error)
        case .adopt(let promise): promise
        case .assimilate(let thenable): assimilated(thenable)
        }
    }
}

/// An error thrown by `onFulfilled` (or by the promise it returned), carried past `onRejected`.
private struct HandledFailure: Error {
    let error: any Error
}
