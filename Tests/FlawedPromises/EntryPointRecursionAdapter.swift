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
        Self.link(promise, onFulfilled, onRejected) { body in (queue ?? .global()).async(execute: body) }
    }

    /// `thenInline`: the same handlers, run inside the parent's callback.
    public var entryPoints: [EntryPoint<InlinePromise>] {
        [
            EntryPoint("thenInline", handlers: [.onFulfilled, .onRejected], results: [.value, .throw, .adopt]) {
                promise, _, onFulfilled, onRejected in Self.link(promise, onFulfilled, onRejected) { $0() }
            }
        ]
    }

    /// A derived promise resolved by the handler for `promise`'s outcome, run through `run`.
    private static func link(
        _ promise: InlinePromise, _ onFulfilled: (@Sendable (Sentinel) -> HandlerResult<InlinePromise>)?,
        _ onRejected: (@Sendable (any Error) -> HandlerResult<InlinePromise>)?,
        run: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void
    ) -> InlinePromise {
        let derived = InlinePromise()
        promise.subscribe { outcome in
            run {
                switch outcome {
                case .success(let value): derived.resolve(onFulfilled?(value) ?? .fulfill(value))
                case .failure(let error): derived.resolve(onRejected?(error) ?? .reject(error))
                }
            }
        }
        return derived
    }
}
