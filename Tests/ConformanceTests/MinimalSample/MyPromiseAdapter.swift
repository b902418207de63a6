// The conformance adapter of the minimal promise (MyPromise.swift), as the article "Testing your own promise type"
// shows it: the region between the guide markers is the article's code block, byte for byte (ArticleCodeTests).
// guide:begin my-promise-adapter
import Dispatch
import PromiseConformance

/// Plugs ``MyPromise`` into the conformance suite: a pending promise of the suite's ``Sentinel`` values, and `then`.
/// It declares no capability (no assimilation, combinators or cancellation), so the clauses that need one are
/// reported as not applicable.
struct MyPromiseAdapter: PromiseAdapter {
    /// The implementation's name, as reports and the matrix show it.
    var name: String { "MyPromise" }

    /// A pending promise, and the functions the suite fulfils and rejects it with.
    func pending() -> (
        promise: MyPromise<Sentinel>, fulfill: @Sendable (Sentinel) -> Void, reject: @Sendable (any Error) -> Void
    ) {
        let promise = MyPromise<Sentinel>()
        return (promise, { promise.resolve(.fulfill($0)) }, { promise.resolve(.reject($0)) })
    }

    /// `then`, with the suite's handlers made into the promise's own.
    func then(
        _ promise: MyPromise<Sentinel>, on queue: DispatchQueue?,
        onFulfilled: (@Sendable (Sentinel) -> HandlerResult<MyPromise<Sentinel>>)?,
        onRejected: (@Sendable (any Error) -> HandlerResult<MyPromise<Sentinel>>)?
    ) -> MyPromise<Sentinel> {
        promise.then(on: queue, resolving(onFulfilled), resolving(onRejected))
    }

    /// A handler of the promise's own: what the suite's handler returns becomes the derived promise's resolution.
    private func resolving<Input>(
        _ handler: (@Sendable (Input) -> HandlerResult<MyPromise<Sentinel>>)?
    ) -> (@Sendable (Input) -> MyPromise<Sentinel>.Resolution)? {
        guard let handler else { return nil }
        return { input in
            switch handler(input) {
            case .fulfill(let value): .fulfill(value)
            case .reject(let error): .reject(error)
            case .adopt(let promise): .adopt(promise)
            // A foreign thenable comes only with the `.assimilation` capability, not declared here: the protocol's
            // default `assimilated(_:)` answers it with a rejected promise.
            case .assimilate(let thenable): .adopt(assimilated(thenable))
            }
        }
    }
}
// guide:end my-promise-adapter
