import Dispatch
import Foundation
import PromiseConformance
import TestSupport

/// A small promise whose callbacks run on the settling thread, inside `settle`, for the flawed adapters that recurse
/// on one path only (``PassThroughRecursionAdapter``, ``EntryPointRecursionAdapter``).
///
/// Its correct `then` hops each handler call to a queue, so that a chain of handlers never nests; what the flawed
/// paths do instead, settling the derived promise inside the parent's callback, nests one `settle` per link: the shape
/// of a pass-through that settles the derived task inside `BFContinuation.run(after:_:)` (issue 42).
public final class InlinePromise: Sendable {
    private let state = Locked<
        (outcome: Result<Sentinel, any Error>?, callbacks: [@Sendable (Result<Sentinel, any Error>) -> Void])
    >((nil, []))

    /// A pending promise and the two functions that settle it, as an adapter's `pending()` returns them.
    public typealias Pending = (
        promise: InlinePromise, fulfill: @Sendable (Sentinel) -> Void, reject: @Sendable (any Error) -> Void
    )

    /// A pending promise.
    public init() {}

    /// Frees the callbacks of a promise dropped while pending through ``ReleaseQueue``: each callback holds the
    /// derived promise, whose own callbacks would otherwise be freed inside this `deinit`, one nested `deinit` per
    /// link of a chain.
    deinit {
        ReleaseQueue.release {
            state.withLock { state in
                defer { state.callbacks = [] }
                return state.callbacks
            }
        }
    }

    /// A pending promise and its two settling functions.
    public static func pending() -> Pending {
        let promise = InlinePromise()
        return (promise, { promise.settle(.success($0)) }, { promise.settle(.failure($0)) })
    }

    /// Settles the promise once, then runs every callback here, in order; later calls do nothing.
    public func settle(_ outcome: Result<Sentinel, any Error>) {
        let callbacks: [@Sendable (Result<Sentinel, any Error>) -> Void]? = state.withLock { state in
            guard state.outcome == nil else { return nil }
            state.outcome = outcome
            defer { state.callbacks = [] }
            return state.callbacks
        }
        for callback in callbacks ?? [] { callback(outcome) }
    }

    /// Runs `callback` with the outcome: at once, here, when the promise has settled; inside ``settle(_:)`` otherwise.
    public func subscribe(_ callback: @escaping @Sendable (Result<Sentinel, any Error>) -> Void) {
        let outcome: Result<Sentinel, any Error>? = state.withLock { state in
            if state.outcome == nil { state.callbacks.append(callback) }
            return state.outcome
        }
        if let outcome { callback(outcome) }
    }

    /// What a flawed `then` runs inside the parent's callback, nested in its `settle`, rather than in a block sent to
    /// the queue: the handler, a value passed on past a link without `onFulfilled`, a reason passed on past a link
    /// without `onRejected`.
    public struct Nesting: OptionSet, Sendable {
        /// The raw bits.
        public let rawValue: Int

        /// A set from its raw bits.
        public init(rawValue: Int) {
            self.rawValue = rawValue
        }

        /// The handler runs inside the parent's callback.
        public static let handlers = Nesting(rawValue: 1 << 0)
        /// A value without a handler passes on inside the parent's callback.
        public static let passedValue = Nesting(rawValue: 1 << 1)
        /// A reason without a handler passes on inside the parent's callback.
        public static let passedReason = Nesting(rawValue: 1 << 2)
    }

    /// A promise resolved by the handler for this promise's outcome (or with that outcome, without one), run in a
    /// block sent to `queue` (a global queue when nil), or inside the parent's callback where `nesting` says so.
    public func then(
        on queue: DispatchQueue?, nesting: Nesting,
        onFulfilled: (@Sendable (Sentinel) -> HandlerResult<InlinePromise>)?,
        onRejected: (@Sendable (any Error) -> HandlerResult<InlinePromise>)?
    ) -> InlinePromise {
        let derived = InlinePromise()
        subscribe { outcome in
            let (step, nested): (@Sendable () -> HandlerResult<InlinePromise>, Bool) =
                switch outcome {
                case .success(let value):
                    onFulfilled.map { handler in ({ handler(value) }, nesting.contains(.handlers)) }
                        ?? ({ .fulfill(value) }, nesting.contains(.passedValue))
                case .failure(let error):
                    onRejected.map { handler in ({ handler(error) }, nesting.contains(.handlers)) }
                        ?? ({ .reject(error) }, nesting.contains(.passedReason))
                }
            if nested { derived.resolve(step()) } else { (queue ?? .global()).async { derived.resolve(step()) } }
        }
        return derived
    }

    /// Settles the promise as `result` says, following an ``InlinePromise`` it adopts.
    func resolve(_ result: HandlerResult<InlinePromise>) {
        switch result {
        case .fulfill(let value): settle(.success(value))
        case .reject(let error): settle(.failure(error))
        case .adopt(let other): other.subscribe { self.settle($0) }
        case .assimilate: settle(.failure(InlinePromiseError.noAssimilation))
        }
    }
}

/// Why an ``InlinePromise`` rejected: it does not assimilate thenables (its adapters do not declare it).
enum InlinePromiseError: Error {
    case noAssimilation
}

/// An adapter of ``InlinePromise``s: their `pending()`.
public protocol InlinePromiseAdapter: PromiseAdapter where Promise == InlinePromise {}

extension InlinePromiseAdapter {
    /// A pending promise and its two settling functions.
    public func pending() -> InlinePromise.Pending { InlinePromise.pending() }

    /// Handlers with no queue are sent to a global queue, which may run two at once.
    public var concurrentDefaultScheduling: String? {
        "a handler with no queue is sent to a global queue, which may run two handlers at once"
    }
}

/// What a thread frees one object at a time: an object freed while the thread is already freeing one waits its turn
/// instead of being freed inside the other's `deinit`.
private final class ReleaseQueue {
    private var waiting: [Any] = []
    private var draining = false

    /// Frees the object `take` hands over on this thread, after the objects it is already freeing. The object goes
    /// straight into the queue, so that no reference to it outlives this call elsewhere.
    static func release(_ take: () -> Any) {
        let key = "FlawedPromises.ReleaseQueue"
        let queue =
            Thread.current.threadDictionary[key] as? ReleaseQueue
            ?? {
                let queue = ReleaseQueue()
                Thread.current.threadDictionary[key] = queue
                return queue
            }()
        queue.waiting.append(take())
        guard !queue.draining else { return }
        queue.draining = true
        while let next = queue.waiting.popLast() { _ = next }
        queue.draining = false
    }
}
