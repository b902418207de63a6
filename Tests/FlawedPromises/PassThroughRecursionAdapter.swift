import Dispatch
import PromiseConformance

/// An ``InlinePromise`` whose `then` hops each handler to a queue, but passes a value it has no handler for to the
/// derived promise inside the parent's callback: a chain of links without `onFulfilled` from a fulfilled root settles
/// recursively, one nested `settle` per link (the shape of issue 42's pass-through of a success past
/// `continueOnErrorWith`). A rejection it has no handler for hops like a handler.
///
/// The clauses before the deep-chain family pass it: their one chain without a handler passes a rejection on.
/// `swift.deepChain.settled` fails it in its case "no handler for the outcome, fulfilled root", through the adapter's
/// own `then`.
public struct PassThroughRecursionAdapter: InlinePromiseAdapter, Codable {
    /// The adapter.
    public init() {}

    /// `PassThroughRecursion`.
    public var name: String { "PassThroughRecursion" }

    /// Hops a handler, and a reason without one, to `queue` (a global queue when nil); passes a value without a
    /// handler on at once.
    public func then(
        _ promise: InlinePromise, on queue: DispatchQueue?,
        onFulfilled: (@Sendable (Sentinel) -> HandlerResult<InlinePromise>)?,
        onRejected: (@Sendable (any Error) -> HandlerResult<InlinePromise>)?
    ) -> InlinePromise {
        promise.then(on: queue, nesting: .passedValue, onFulfilled: onFulfilled, onRejected: onRejected)
    }
}
