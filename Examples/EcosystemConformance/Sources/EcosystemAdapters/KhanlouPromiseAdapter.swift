import Dispatch
import Foundation
import Promise
import PromiseConformance

/// khanlou/Promise's class `Promise.Promise`, under a name that the adapter's own `Promise` (the protocol's associated
/// type) does not hide: inside ``KhanlouPromiseAdapter`` a bare `Promise` is the adapter's type, and `Promise.Promise`
/// does not compile there either (the module and its class have the same name).
typealias KhanlouLibraryPromise<Value> = Promise<Value>

/// khanlou/Promise's `Promise` of a sentinel, in a wrapper the suite can pass between threads: the class guards its
/// state with a serial dispatch queue of its own (`lockQueue`), but is not declared `Sendable`.
public struct KhanlouPromise: @unchecked Sendable {
    /// The library's promise.
    public let promise: Promise<Sentinel>
}

/// The serial queue that stands in for `DispatchQueue.main`, the library's default execution context
/// (`Promise.swift:194`, `:221`, `:239`), which the suite never serves.
private let khanlouMainStandIn = DispatchQueue(label: "KhanlouPromiseAdapter.main-stand-in")

/// Plugs khanlou/Promise (`Promise<Value>`, module `Promise`, package `Promises`) into the conformance suite.
///
/// - A pending promise is `Promise()`, settled with its `fulfill(_:)` and `reject(_:)` methods, as the README says for
///   delegate-based APIs.
/// - The library's `then(on:_:)` takes no rejection handler, and `recover(on:_:)` would also catch what the
///   fulfilment handler throws, so neither alone is A+ `then`. The derived promise is built as the library builds the
///   one its own `then(on:_:)` returns (`Promise.swift:194-208`): `Promise(work:)`, whose work registers the callbacks
///   on the upstream promise, here both of them, through the three-argument `then(on:_:_:)`. A handler's returned
///   promise is adopted as the library adopts one (`Promise.swift:200`): `then(on:_:_:)` on it with the derived
///   promise's `fulfill` and `reject`.
/// - The library's default execution context is `DispatchQueue.main` (`Promise.swift:194`, README "Threading Model");
///   the suite requires `nil` not to need the main queue, so a handler with no queue runs on a serial queue of the
///   adapter that stands in for it (``defaultQueue``): one handler at a time, as on `.main`. (A global queue would run
///   two handlers of a settled promise at once, `Promise.swift:310-313`, which the library's default never does.)
/// - The library has no notion of a foreign thenable, so assimilation uses the suite's ``Assimilation`` helper. `all`
///   and `race` are the library's `Promises.all` and `Promises.race`; it has no `any` and no cancellation (an
///   `InvalidatableQueue` drops blocks, leaving the promises pending: it settles nothing as cancelled).
public struct KhanlouPromiseAdapter: PromiseAdapter, Codable {
    /// The wrapper around the library's `Promise<Sentinel>`.
    public typealias Promise = KhanlouPromise

    /// Creates the adapter.
    public init() {}

    /// The column title: `khanlou/Promise`.
    public var name: String { "khanlou/Promise" }

    /// Assimilation (through the suite's helper), `all` (`Promises.all`) and `race` (`Promises.race`).
    public var capabilities: Capabilities { [.assimilation, .all, .race] }

    /// The serial queue that stands in for `DispatchQueue.main`, for the generated programs' driver to flush between
    /// steps.
    public var defaultQueue: DispatchQueue? { khanlouMainStandIn }

    /// `Promise()`, and its `fulfill(_:)` and `reject(_:)`.
    public func pending() -> (
        promise: KhanlouPromise, fulfill: @Sendable (Sentinel) -> Void, reject: @Sendable (any Error) -> Void
    ) {
        let box = KhanlouPromise(promise: KhanlouLibraryPromise<Sentinel>())
        return (box, { box.promise.fulfill($0) }, { box.promise.reject($0) })
    }

    /// `Promise(value:)`.
    public func fulfilled(_ value: Sentinel) -> KhanlouPromise {
        KhanlouPromise(promise: KhanlouLibraryPromise(value: value))
    }

    /// `Promise(error:)`.
    public func rejected(_ error: any Error) -> KhanlouPromise {
        KhanlouPromise(promise: KhanlouLibraryPromise<Sentinel>(error: error))
    }

    /// `Promise(work:)` whose work registers both handlers on `promise` with `then(on:_:_:)`, on `queue` (or the
    /// stand-in for `.main`), and settles the derived promise with what the handler asks for.
    public func then(
        _ promise: KhanlouPromise, on queue: DispatchQueue?,
        onFulfilled: (@Sendable (Sentinel) -> HandlerResult<KhanlouPromise>)?,
        onRejected: (@Sendable (any Error) -> HandlerResult<KhanlouPromise>)?
    ) -> KhanlouPromise {
        let context = queue ?? khanlouMainStandIn
        let derived = KhanlouLibraryPromise<Sentinel>(work: { fulfill, reject in
            promise.promise.then(
                on: context,
                { (value: Sentinel) -> Void in
                    guard let onFulfilled else { return fulfill(value) }
                    settle(with: onFulfilled(value), on: context, fulfill, reject)
                },
                { (error: any Error) -> Void in
                    guard let onRejected else { return reject(error) }
                    settle(with: onRejected(error), on: context, fulfill, reject)
                })
        })
        return KhanlouPromise(promise: derived)
    }

    /// Settles the derived promise through its `fulfill` and `reject` functions: with a value, an error, or as the
    /// returned promise settles (`then(on:_:_:)` on it).
    private func settle(
        with result: HandlerResult<KhanlouPromise>, on context: DispatchQueue,
        _ fulfill: @escaping (Sentinel) -> Void, _ reject: @escaping (any Error) -> Void
    ) {
        switch result {
        case .fulfill(let value): fulfill(value)
        case .reject(let error): reject(error)
        case .adopt(let other): other.promise.then(on: context, fulfill, reject)
        case .assimilate(let thenable): assimilated(thenable).promise.then(on: context, fulfill, reject)
        }
    }

    /// A pending `Promise()` settled by the suite's ``Assimilation`` helper.
    public func assimilated(_ thenable: any Thenable) -> KhanlouPromise {
        let (promise, fulfill, reject) = pending()
        Assimilation.resolve(thenable) { outcome in
            switch outcome {
            case .success(let value): fulfill(value)
            case .failure(let error): reject(error)
            }
        }
        return promise
    }

    /// `Promises.all(_:)`, its outcome observed with `then(on:_:_:)` on a global queue.
    public func all(
        _ promises: [KhanlouPromise], completion: @escaping @Sendable (Result<[Sentinel], any Error>) -> Void
    ) {
        Promises.all(promises.map(\.promise)).then(
            on: DispatchQueue.global(), { completion(.success($0)) }, { completion(.failure($0)) })
    }

    /// `Promises.race(_:)`.
    public func race(_ promises: [KhanlouPromise]) -> KhanlouPromise {
        KhanlouPromise(promise: Promises.race(promises.map(\.promise)))
    }

    /// `swift.release` watches the library's promise, not the wrapper (which has no identity).
    public func lifetimeObject(of promise: KhanlouPromise) -> AnyObject? { promise.promise }
}
