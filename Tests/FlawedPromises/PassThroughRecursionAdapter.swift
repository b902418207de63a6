import Dispatch
import PromiseConformance

/// An ``InlinePromise`` whose `then` hops each handler to a queue, but passes an outcome it has no handler for to the
/// derived promise inside the parent's callback: a chain of such links settles recursively, one nested `settle` per
/// link, as BoltsStyle's `continueOnSuccessWith` did on a faulted task before its fix. The deep-chain clause's case
/// "no handler for the outcome" catches it through the adapter's own `then`; the old `swift.deepChain` only by
/// crashing.
public struct PassThroughRecursionAdapter: PromiseAdapter {
    /// The adapter.
    public init() {}

    /// `PassThroughRecursion`.
    public var name: String { "PassThroughRecursion" }

    /// A pending promise and its two settling functions.
    public func pending() -> InlinePromise.Pending { InlinePromise.pending() }

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
                guard let onRejected else { return derived.settle(outcome) }
                queue.async { derived.resolve(onRejected(error)) }
            }
        }
        return derived
    }
}
