import Dispatch
import OpenCombine
import PromiseConformance

/// OpenCombine's `Future` of a sentinel, in a wrapper the suite can pass between threads: `Future` is a class that
/// guards its state with a lock, but is not declared `Sendable`.
public struct CombineFuture: @unchecked Sendable {
    /// The library's future.
    public let future: Future<Sentinel, any Error>
}

/// Plugs OpenCombine's `Future` into the conformance suite, written as Combine's documentation shows: a pending
/// future is `Future { promise in ... }` with its `promise` function kept, and `then` subscribes a
/// `Subscribers.Sink` whose callbacks complete the derived `Future`.
///
/// - The sink is attached with `subscribe(_:)`, so that the upstream future keeps it (and the derived future) alive
///   until it completes, as a promise chain does; no `AnyCancellable` has to be held.
/// - A handler asked to run on a queue runs there as one block per delivery (`queue.async`), not through
///   `receive(on:)`, which schedules a value and its completion separately and loses the value on a concurrent queue.
/// - Adopting a future is subscribing to it in turn. Combine has no notion of a foreign thenable, so assimilation uses
///   the suite's ``Assimilation`` helper. Combine's `Zip`, `Merge` and `Publishers.MergeMany` are publishers of
///   streams, not promise combinators, so none is declared.
public struct OpenCombineFutureAdapter: PromiseAdapter, Codable {
    /// The wrapper around OpenCombine's `Future`.
    public typealias Promise = CombineFuture

    /// Creates the adapter.
    public init() {}

    /// The column title: `OpenCombine`.
    public var name: String { "OpenCombine" }

    /// Assimilation, through the suite's helper.
    public var capabilities: Capabilities { [.assimilation] }

    /// Where OpenCombine's `Future` departs from Promises/A+ and the suite's Swift clauses, as the suite observed it
    /// (OpenCombine 0.14, `Sources/OpenCombine/Future.swift` and `Helpers/ConduitList.swift`).
    public var deviations: [String: String] {
        let unordered =
            "Sources/OpenCombine/Helpers/ConduitList.swift: a Future keeps its subscribers in a ConduitList, which holds more than one in a Set "
            + "(`case many(Set<ConduitBase>)`): they receive the value in the Set's order, not in subscription order."
        let synchronous =
            "Sources/OpenCombine/Future.swift: completing a Future delivers synchronously, and each subscriber here completes the next Future: "
            + "a chain settles one nested call per link (measured, about 3.7 KiB of stack a link in a debug build)."
        let heldParent =
            "Sources/OpenCombine/Future.swift: a subscription (Future.Conduit) holds its Future strongly (`private var parent: Future?`) until the "
            + "Future completes or the subscription is cancelled: a pending Future with a subscriber stays alive."
        return [
            "2.2.4":
                "Sources/OpenCombine/Future.swift: delivery is synchronous, `promise(_:)` hands the value to every subscriber on the caller's stack, and "
                + "`receive(subscriber:)` on a completed Future calls `conduit.fulfill(result)` before returning.",
            "2.2.6.1": unordered,
            "2.2.6.2": unordered,
            "swift.concurrentRegistration": unordered,
            "2.3.1":
                "Sources/OpenCombine/Future.swift: no cycle detection, a Future whose own handler returns it subscribes to itself and never completes.",
            "swift.deepChain":
                "Sources/OpenCombine/Future.swift: completing a Future delivers synchronously, and each subscriber here completes the next Future: "
                + "settling a 20,000-link chain recurses once per link and overflows the 1 MiB stack (SIGSEGV).",
            "swift.deepChain.settled": synchronous,
            "swift.deepChain.dropped": synchronous + " " + heldParent,
            "swift.release#a pending promise nothing holds": heldParent,
        ]
    }

    /// A `Future` whose `promise` function is kept, and called to settle it.
    public func pending() -> (
        promise: CombineFuture, fulfill: @Sendable (Sentinel) -> Void, reject: @Sendable (any Error) -> Void
    ) {
        let (future, complete) = Self.makeFuture()
        return (future, { complete(.success($0)) }, { complete(.failure($0)) })
    }

    /// Subscribes a sink that runs the matching handler and completes the derived future.
    public func then(
        _ promise: CombineFuture, on queue: DispatchQueue?,
        onFulfilled: (@Sendable (Sentinel) -> HandlerResult<CombineFuture>)?,
        onRejected: (@Sendable (any Error) -> HandlerResult<CombineFuture>)?
    ) -> CombineFuture {
        let (derived, complete) = Self.makeFuture()
        let deliver: @Sendable (@escaping @Sendable () -> Void) -> Void = { work in
            if let queue { queue.async(execute: work) } else { work() }
        }
        Self.whenSettled(promise) { outcome in
            switch outcome {
            case .success(let value):
                guard let onFulfilled else { return complete(outcome) }
                deliver { settle(complete, with: onFulfilled(value)) }
            case .failure(let error):
                guard let onRejected else { return complete(outcome) }
                deliver { settle(complete, with: onRejected(error)) }
            }
        }
        return derived
    }

    /// A future completed with the thenable's outcome, by the suite's ``Assimilation`` helper.
    public func assimilated(_ thenable: any Thenable) -> CombineFuture {
        let (future, complete) = Self.makeFuture()
        Assimilation.resolve(thenable, complete)
        return future
    }

    /// `swift.release` watches the library's future, not the wrapper (which has no identity).
    public func lifetimeObject(of promise: CombineFuture) -> AnyObject? { promise.future }

    private func settle(
        _ complete: @escaping @Sendable (Result<Sentinel, any Error>) -> Void, with result: HandlerResult<CombineFuture>
    ) {
        switch result {
        case .fulfill(let value): complete(.success(value))
        case .reject(let error): complete(.failure(error))
        case .adopt(let other): Self.whenSettled(other, complete)
        case .assimilate(let thenable): Assimilation.resolve(thenable, complete)
        }
    }

    /// Subscribes a sink to `promise` that reports its one outcome.
    private static func whenSettled(
        _ promise: CombineFuture, _ body: @escaping @Sendable (Result<Sentinel, any Error>) -> Void
    ) {
        promise.future.subscribe(
            Subscribers.Sink(
                receiveCompletion: { completion in
                    if case .failure(let error) = completion { body(.failure(error)) }
                },
                receiveValue: { body(.success($0)) }))
    }

    /// A new future and its `promise` function (which `Future.init` hands over before returning).
    private static func makeFuture() -> (CombineFuture, @Sendable (Result<Sentinel, any Error>) -> Void) {
        nonisolated(unsafe) var kept: Future<Sentinel, any Error>.Promise?
        let future = Future<Sentinel, any Error> { kept = $0 }
        nonisolated(unsafe) let complete = kept
        return (CombineFuture(future: future), { complete?($0) })
    }
}
