import Dispatch
import NIOCore
import NIOPosix
import PromiseConformance

/// Plugs swift-nio's `EventLoopFuture` and `EventLoopPromise` into the conformance suite, written as NIO's
/// documentation recommends: a pending promise is `EventLoop.makePromise(of:)`, and `then` chains with `flatMap`
/// (never nested `whenComplete`).
///
/// - Every promise lives on an event loop of `MultiThreadedEventLoopGroup.singleton`; handlers with no queue run on
///   that loop, NIO's only scheduling.
/// - A+ `then` gives the rejection handler only the original promise's error, not the fulfilment handler's: the
///   outcome is first turned into a `Result` (`map`, then `recover`), and one `flatMap` calls the matching handler.
/// - A handler asked to run on a queue runs there, and its result completes a promise of the same loop
///   (`completeWith`), the usual bridge from other executors into NIO.
/// - NIO adopts any `EventLoopFuture` returned from `flatMap` (from any loop). It has no notion of a foreign thenable,
///   so assimilation uses the suite's ``Assimilation`` helper, and `all` is `EventLoopFuture.whenAllSucceed`.
public struct NIOFutureAdapter: PromiseAdapter, Codable {
    /// NIO's future of a sentinel.
    public typealias Promise = EventLoopFuture<Sentinel>

    /// Creates the adapter.
    public init() {}

    /// The column title: `swift-nio`.
    public var name: String { "swift-nio" }

    /// Assimilation (through the suite's helper) and `all`. NIO has no race, any nor cancellation of a future.
    public var capabilities: Capabilities { [.assimilation, .all] }

    /// Where NIO departs from Promises/A+ and the suite's Swift clauses, as the suite observed it (swift-nio 2.101,
    /// `Sources/NIOCore/EventLoopFuture.swift`).
    public var deviations: [String: String] {
        let nested =
            "Sources/NIOCore/EventLoopFuture.swift: on the event loop, `_whenComplete` adds a callback to a completed future and runs it at once "
            + "(`self._addCallback(callback)._run()`): a `flatMap` registered inside a handler of the same completed "
            + "future runs before it returns. Off the loop it goes through `eventLoop.execute`, asynchronously."
        let leak =
            "Sources/NIOCore/EventLoopFuture.swift: every callback of a future reads `self._value` (map, flatMap, ...), so a pending future with a callback "
            + "holds itself until it completes; NIO requires every promise to be completed (a pending future without "
            + "callbacks traps in debug builds: 'leaking an unfulfilled Promise')."
        return [
            "2.2.4#then called inside a handler of the same fulfilled promise": nested,
            "2.2.4#then called inside a handler of the same rejected promise": nested,
            "2.3.1":
                "Sources/NIOCore/EventLoopFuture.swift: no cycle detection, a future returned from its own flatMap is cascaded into itself (`cascade(to:)`) "
                + "and never completes.",
            "generated#2.2.6.1":
                nested + " So a handler of the future that registers another one while the future runs its "
                + "callbacks gets it run ahead of the callbacks still waiting (A, C, B), which the generated programs "
                + "show and the fixed 2.2.6 cases never do.",
            "generated#2.2.6.2": nested + " The same order for onRejected handlers (A, C, B).",
            "swift.deepChain#an unsettled chain dropped": leak,
            "swift.deepChain.dropped#an unsettled chain dropped": leak,
            "swift.release#a pending promise nothing holds": leak,
        ]
    }

    private var loop: any EventLoop { MultiThreadedEventLoopGroup.singleton.next() }

    /// `makePromise(of:)`: its future, `succeed` and `fail`.
    public func pending() -> (
        promise: Promise, fulfill: @Sendable (Sentinel) -> Void, reject: @Sendable (any Error) -> Void
    ) {
        let promise = loop.makePromise(of: Sentinel.self)
        return (promise.futureResult, { promise.succeed($0) }, { promise.fail($0) })
    }

    /// `makeSucceededFuture(_:)`.
    public func fulfilled(_ value: Sentinel) -> Promise { loop.makeSucceededFuture(value) }

    /// `makeFailedFuture(_:)`.
    public func rejected(_ error: any Error) -> Promise { loop.makeFailedFuture(error) }

    /// The outcome as a `Result`, then one `flatMap` to the matching handler.
    public func then(
        _ promise: Promise, on queue: DispatchQueue?,
        onFulfilled: (@Sendable (Sentinel) -> HandlerResult<Promise>)?,
        onRejected: (@Sendable (any Error) -> HandlerResult<Promise>)?
    ) -> Promise {
        let eventLoop = promise.eventLoop
        return promise.map { Result<Sentinel, any Error>.success($0) }.recover { .failure($0) }.flatMap { outcome in
            switch outcome {
            // Never `promise` itself here: the callback would hold the future it is stored in until it completes.
            case .success(let value):
                guard let onFulfilled else { return eventLoop.makeSucceededFuture(value) }
                return run(on: queue, eventLoop) { onFulfilled(value) }
            case .failure(let error):
                guard let onRejected else { return eventLoop.makeFailedFuture(error) }
                return run(on: queue, eventLoop) { onRejected(error) }
            }
        }
    }

    /// Calls `handler` on `queue` (or here, on the loop) and turns what it asks for into a future.
    private func run(
        on queue: DispatchQueue?, _ eventLoop: any EventLoop,
        _ handler: @escaping @Sendable () -> HandlerResult<Promise>
    ) -> Promise {
        guard let queue else { return future(handler(), eventLoop) }
        let bridged = eventLoop.makePromise(of: Sentinel.self)
        queue.async { bridged.completeWith(future(handler(), eventLoop)) }
        return bridged.futureResult
    }

    private func future(_ result: HandlerResult<Promise>, _ eventLoop: any EventLoop) -> Promise {
        switch result {
        case .fulfill(let value): eventLoop.makeSucceededFuture(value)
        case .reject(let error): eventLoop.makeFailedFuture(error)
        case .adopt(let future): future
        case .assimilate(let thenable): assimilated(thenable)
        }
    }

    /// A promise completed with the thenable's outcome, by the suite's ``Assimilation`` helper.
    public func assimilated(_ thenable: any Thenable) -> Promise {
        let promise = loop.makePromise(of: Sentinel.self)
        Assimilation.resolve(thenable) { promise.completeWith($0) }
        return promise.futureResult
    }

    /// The other ways NIO's users chain a future, each a form of A+ `then` the suite also runs its chain clauses
    /// through: `map` and `recover` (a value), `flatMapThrowing` and `flatMapErrorThrowing` (a value, or a thrown
    /// error), `flatMap` and `flatMapError` (a future to follow, or one made of a value or an error). None takes a
    /// queue: a callback runs on the future's event loop.
    public var entryPoints: [EntryPoint<Promise>] {
        let following: ResultKinds = [.value, .throw, .adopt, .assimilate]
        return [
            EntryPoint("map", handlers: .onFulfilled, results: .value) { promise, _, onFulfilled, _ in
                promise.map { value in Self.plainValue(onFulfilled?(value), or: value) }
            },
            EntryPoint("flatMapThrowing", handlers: .onFulfilled, results: [.value, .throw]) {
                promise, _, onFulfilled, _ in
                promise.flatMapThrowing { value in try onFulfilled?(value).value() ?? value }
            },
            EntryPoint("flatMap", handlers: .onFulfilled, results: following) { promise, _, onFulfilled, _ in
                let eventLoop = promise.eventLoop
                return promise.flatMap { value in
                    self.future(onFulfilled?(value) ?? .fulfill(value), eventLoop)
                }
            },
            EntryPoint("recover", handlers: .onRejected, results: .value) { promise, _, _, onRejected in
                promise.recover { error in
                    guard let onRejected else { preconditionFailure("recover needs a handler") }
                    return Self.plainValue(onRejected(error), or: nil)
                }
            },
            EntryPoint("flatMapErrorThrowing", handlers: .onRejected, results: [.value, .throw]) {
                promise, _, _, onRejected in
                promise.flatMapErrorThrowing { error in
                    guard let onRejected else { throw error }
                    return try onRejected(error).value()
                }
            },
            EntryPoint("flatMapError", handlers: .onRejected, results: following) { promise, _, _, onRejected in
                let eventLoop = promise.eventLoop
                return promise.flatMapError { error in self.future(onRejected?(error) ?? .reject(error), eventLoop) }
            },
        ]
    }

    /// The value a handler routed through `map` or `recover` returned (the suite routes only such handlers there),
    /// or `fallback` when there is no handler.
    private static func plainValue(_ result: HandlerResult<Promise>?, or fallback: Sentinel?) -> Sentinel {
        switch result {
        case .fulfill(let value): return value
        case nil:
            guard let fallback else { preconditionFailure("no handler and no value to pass on") }
            return fallback
        default: preconditionFailure("map and recover take handlers that return a value: \(String(describing: result))")
        }
    }

    /// `EventLoopFuture.whenAllSucceed(_:on:)`.
    public func all(_ promises: [Promise], completion: @escaping @Sendable (Result<[Sentinel], any Error>) -> Void) {
        EventLoopFuture.whenAllSucceed(promises, on: loop).whenComplete(completion)
    }
}
