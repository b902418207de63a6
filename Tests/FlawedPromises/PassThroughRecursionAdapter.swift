import Dispatch
import PromiseConformance

/// An ``InlinePromise`` whose `then` hops each handler to a queue, but passes a value it has no handler for to the
/// derived promise inside the parent's callback: a chain of links without `onFulfilled` from a fulfilled root settles
/// recursively, one nested `settle` per link, as BoltsStyle's `continueOnErrorWith` did on a successful task (and
/// `continueOnSuccessWith` on a faulted one) before its fix. A rejection it has no handler for hops like a handler.
///
/// The clauses before the deep-chain family pass it: their one chain without a handler passes a rejection on.
/// `swift.deepChain.settled` fails it in its case "no handler for the outcome, fulfilled root", through the adapter's
/// own `then`.
public struct PassThroughRecursionAdapter: InlinePromiseAdapter, Codable {
    /// The adapter.
    public init() {}

    /// `PassThroughRecursion`.
    public var name: String { "PassThroughRecursion" }

    /// Hops a handler to `queue` (a global queue when nil); passes an outcome without a handler on at once.
    public func then(
        _ promise: InlinePromise, on queue: DispatchQueue?,
        onFulfilled: (@Sendable (Sentinel) -> HandlerResult<InlinePromise>)?,
        onRejected: (@Sendable (any Error) -> HandlerResult<InlinePromise>)?
    ) -> InlinePromise {
        let derived = InlinePromise()
        promise.subscribe { outcome in
            let queue = queue ?? .global()
            switch outcome {
            case .success(let value):
                // The flaw: the outcome passes on nested in the parent's settle.
                guard let onFulfilled else { return derived.settle(outcome) }
                queue.async { derived.resolve(onFulfilled(value)) }
            case .failure(let error):
                queue.async { derived.resolve(onRejected?(error) ?? .reject(error)) }
            }
        }
        return derived
    }
}
