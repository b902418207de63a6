import Dispatch
import PromiseConformance

/// An ``InlinePromise`` with a correct `then`, which hops each handler call to a queue, and a second public form,
/// `thenInline`, which runs the handler inside the parent's callback: a chain of `thenInline` links settles
/// recursively, one nested `settle` per link. Only the deep-chain clauses run through the entry point see it.
public struct EntryPointRecursionAdapter: InlinePromiseAdapter, Codable {
    /// The adapter.
    public init() {}

    /// `EntryPointRecursion`.
    public var name: String { "EntryPointRecursion" }

    /// Hops every outcome to `queue` (a global queue when nil), and runs the handler there.
    public func then(
        _ promise: InlinePromise, on queue: DispatchQueue?,
        onFulfilled: (@Sendable (Sentinel) -> HandlerResult<InlinePromise>)?,
        onRejected: (@Sendable (any Error) -> HandlerResult<InlinePromise>)?
    ) -> InlinePromise {
        promise.then(on: queue, nesting: [], onFulfilled: onFulfilled, onRejected: onRejected)
    }

    /// `thenInline`: the same handlers, run inside the parent's callback.
    public var entryPoints: [EntryPoint<InlinePromise>] {
        [
            EntryPoint("thenInline", handlers: [.onFulfilled, .onRejected], results: [.value, .throw, .adopt]) {
                promise, _, onFulfilled, onRejected in
                promise.then(
                    on: nil, nesting: [.handlers, .passedValue, .passedReason], onFulfilled: onFulfilled,
                    onRejected: onRejected)
            }
        ]
    }
}
