import Dispatch
import PromiseConformance

/// The settlement path of issue 42's BoltsStyle defect, in small: the adapter's `then` gives the library both handlers (as
/// BoltsStyle's adapter does with `continueWithTask`), so no outcome ever passes a link by itself there; the library's
/// one-handler forms, `onSuccess` and `onError` (Bolts' `continueOnSuccessWith` and `continueOnErrorWith`), pass the
/// other outcome on inside the parent's callback, nested in its `settle`, once per link.
///
/// The clauses before the deep-chain family pass it; `swift.deepChain.settled` fails it through those two entry points
/// only, whatever becomes of BoltsStyle itself.
public struct OldBoltsSettlementAdapter: InlinePromiseAdapter, Codable {
    /// The adapter.
    public init() {}

    /// `OldBoltsSettlement`.
    public var name: String { "OldBoltsSettlement" }

    /// Both handlers, each outcome hopping to `queue` (a global queue when nil).
    public func then(
        _ promise: InlinePromise, on queue: DispatchQueue?,
        onFulfilled: (@Sendable (Sentinel) -> HandlerResult<InlinePromise>)?,
        onRejected: (@Sendable (any Error) -> HandlerResult<InlinePromise>)?
    ) -> InlinePromise {
        promise.then(
            on: queue, nesting: [], onFulfilled: onFulfilled ?? { .fulfill($0) },
            onRejected: onRejected ?? { .reject($0) })
    }

    /// `onSuccess` and `onError`, each passing the other outcome on nested.
    public var entryPoints: [EntryPoint<InlinePromise>] {
        [
            EntryPoint("onSuccess", handlers: .onFulfilled, results: [.value, .throw, .adopt]) {
                promise, _, onFulfilled, _ in
                promise.then(on: nil, nesting: .passedReason, onFulfilled: onFulfilled, onRejected: nil)
            },
            EntryPoint("onError", handlers: .onRejected, results: [.value, .throw, .adopt]) {
                promise, _, _, onRejected in
                promise.then(on: nil, nesting: .passedValue, onFulfilled: nil, onRejected: onRejected)
            },
        ]
    }
}
