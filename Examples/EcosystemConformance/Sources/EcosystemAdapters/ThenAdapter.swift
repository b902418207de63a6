import Dispatch
import Foundation
import PromiseConformance
import Then

/// freshOS/Then's class `Then.Promise`, under a name that the adapter's own `Promise` (the protocol's associated type)
/// does not hide.
typealias ThenLibraryPromise<Value> = Promise<Value>

/// freshOS/Then's `Promise` of a sentinel, in a wrapper the suite can pass between threads: the class guards its state
/// with a serial dispatch queue of its own (`Locker`), but is not declared `Sendable`.
public struct ThenPromise: @unchecked Sendable {
    /// The library's promise.
    public let promise: Promise<Sentinel>
}

/// Plugs freshOS/Then (`Promise<T>`, module `Then`) into the conformance suite, written as its README writes a chain:
/// `then { }` and `onError { }`.
///
/// - A pending promise is `Promise()`, settled with its public `fulfill(_:)` and `reject(_:)` methods (the README's
///   `Promise { resolve, reject in }` hands out its resolvers only once the promise starts, and starts it lazily).
/// - Then has no A+ `then(onFulfilled, onRejected)`: its `then` takes no rejection handler and cannot throw, and
///   `recover` would also catch what a fulfilment handler returns. So `then` makes a pending `Promise()` and settles it
///   from `upstream.then { value in ... }.onError { error in ... }`; a returned promise is adopted the same way
///   (`then` and `onError` on it), as the library's own `then` adopts one (`Promise+Then.swift:83-91`).
/// - Then has no queues: it runs a block on the thread that settles the promise, or inside `then` when the promise is
///   settled already. A handler asked to run on a queue is handed to it with `queue.async`, as a Then user does; with
///   no queue (the implementation's default scheduling) it runs where Then runs it.
/// - Then has no notion of a foreign thenable, so assimilation uses the suite's ``Assimilation`` helper. `all` is
///   `Promises.whenAll(_:callbackQueue:)` with a global callback queue (its default is the calling operation queue's,
///   else the main queue); `race` is `Promises.race(_:)`, which is variadic only, so an array is raced as nested
///   races, `race(p0, race(p1, race(p2)))`. Then has no `any` and no cancellation.
public struct ThenAdapter: PromiseAdapter, Codable {
    /// The wrapper around the library's `Promise<Sentinel>`.
    public typealias Promise = ThenPromise

    /// Creates the adapter.
    public init() {}

    /// The column title: `Then`.
    public var name: String { "Then" }

    /// Assimilation (through the suite's helper), `all` (`Promises.whenAll`) and `race` (`Promises.race`).
    public var capabilities: Capabilities { [.assimilation, .all, .race] }

    /// `Promise()`, and its `fulfill(_:)` and `reject(_:)`.
    public func pending() -> (
        promise: ThenPromise, fulfill: @Sendable (Sentinel) -> Void, reject: @Sendable (any Error) -> Void
    ) {
        let box = ThenPromise(promise: ThenLibraryPromise<Sentinel>())
        return (box, { box.promise.fulfill($0) }, { box.promise.reject($0) })
    }

    /// `Promise(value)`.
    public func fulfilled(_ value: Sentinel) -> ThenPromise {
        ThenPromise(promise: ThenLibraryPromise(value))
    }

    /// `Promise(error:)`.
    public func rejected(_ error: any Error) -> ThenPromise {
        ThenPromise(promise: ThenLibraryPromise<Sentinel>(error: error))
    }

    /// A pending `Promise()`, settled from `then { }.onError { }` on `promise`; each handler runs on `queue` when one
    /// is given (`queue.async`), else where Then calls the block.
    public func then(
        _ promise: ThenPromise, on queue: DispatchQueue?,
        onFulfilled: (@Sendable (Sentinel) -> HandlerResult<ThenPromise>)?,
        onRejected: (@Sendable (any Error) -> HandlerResult<ThenPromise>)?
    ) -> ThenPromise {
        let derived = ThenPromise(promise: ThenLibraryPromise<Sentinel>())
        let deliver: @Sendable (@escaping @Sendable () -> Void) -> Void = { work in
            if let queue { queue.async(execute: work) } else { work() }
        }
        promise.promise
            .then { (value: Sentinel) -> Void in
                guard let onFulfilled else { return derived.promise.fulfill(value) }
                deliver { settle(derived, with: onFulfilled(value)) }
            }
            .onError { (error: any Error) -> Void in
                guard let onRejected else { return derived.promise.reject(error) }
                deliver { settle(derived, with: onRejected(error)) }
            }
        return derived
    }

    /// Settles `derived` with a value, an error, or as the returned promise settles (`then` and `onError` on it).
    private func settle(_ derived: ThenPromise, with result: HandlerResult<ThenPromise>) {
        switch result {
        case .fulfill(let value): derived.promise.fulfill(value)
        case .reject(let error): derived.promise.reject(error)
        case .adopt(let other): follow(other, derived)
        case .assimilate(let thenable): follow(assimilated(thenable), derived)
        }
    }

    /// Settles `derived` as `other` settles.
    private func follow(_ other: ThenPromise, _ derived: ThenPromise) {
        other.promise
            .then { (value: Sentinel) -> Void in derived.promise.fulfill(value) }
            .onError { (error: any Error) -> Void in derived.promise.reject(error) }
    }

    /// A pending `Promise()` settled by the suite's ``Assimilation`` helper.
    public func assimilated(_ thenable: any Thenable) -> ThenPromise {
        let (promise, fulfill, reject) = pending()
        Assimilation.resolve(thenable) { outcome in
            switch outcome {
            case .success(let value): fulfill(value)
            case .failure(let error): reject(error)
            }
        }
        return promise
    }

    /// `Promises.whenAll(_:callbackQueue:)` with a global callback queue, observed with `then { }.onError { }`.
    public func all(_ promises: [ThenPromise], completion: @escaping @Sendable (Result<[Sentinel], any Error>) -> Void)
    {
        Promises.whenAll(promises.map(\.promise), callbackQueue: DispatchQueue.global())
            .then { (values: [Sentinel]) -> Void in completion(.success(values)) }
            .onError { (error: any Error) -> Void in completion(.failure(error)) }
    }

    /// `Promises.race(_:)`, nested for an array: the first input against the race of the others.
    public func race(_ promises: [ThenPromise]) -> ThenPromise {
        ThenPromise(promise: raced(promises.map(\.promise)[...]))
    }

    /// `Promises.race` of `inputs`, which it takes only as variadic arguments.
    private func raced(_ inputs: ArraySlice<ThenLibraryPromise<Sentinel>>) -> ThenLibraryPromise<Sentinel> {
        guard let first = inputs.first else { return Promises.race() }
        guard inputs.count > 1 else { return Promises.race(first) }
        return Promises.race(first, raced(inputs.dropFirst()))
    }

    /// `swift.release` watches the library's promise, not the wrapper (which has no identity).
    public func lifetimeObject(of promise: ThenPromise) -> AnyObject? { promise.promise }
}
