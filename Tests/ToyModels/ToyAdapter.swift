// The conformance adapter of a toy, once for the three: each toy offers the same three things (a pending promise with
// the function that settles it, a settled promise, and a chain step whose body sees the outcome and returns the
// promise to follow), and this maps the suite's requests onto them. Each toy's own adapter (ToyTaskAdapter.swift,
// QueueBoxAdapter.swift, ToyPromiseAdapter.swift) says how its toy offers them, and where it departs from the suite.
import Dispatch
import PromiseConformance

/// A conformance adapter for one of the toys, built from the three things every toy offers.
///
/// The tests run the clauses a toy deviates on in child processes (`Conformance.runIsolated`): a toy frees a dropped
/// chain by nested `deinit`s, which overflows the clause's stack, so the adapter is `Codable`.
protocol ToyAdapter: PromiseAdapter, Codable {
    /// An outcome, as the toys see it.
    typealias Outcome = Result<Sentinel, any Error>

    /// A pending promise and the function that settles it (only its first call counts).
    func pendingToy() -> (promise: Promise, settle: @Sendable (Outcome) -> Void)

    /// A promise settled with `outcome`.
    func settled(_ outcome: Outcome) -> Promise

    /// The toy's chain step: `body` sees the outcome on `queue` (`nil`: the toy's default), and the promise it returns
    /// settles the promise returned here.
    func chain(_ promise: Promise, on queue: DispatchQueue?, _ body: @escaping @Sendable (Outcome) -> Promise)
        -> Promise
}

extension ToyAdapter {
    /// Assimilation only, through the suite's helper, as the real styles' adapters do: the toys have no combinators
    /// and no cancellation.
    var capabilities: Capabilities { [.assimilation] }

    func pending() -> (promise: Promise, fulfill: @Sendable (Sentinel) -> Void, reject: @Sendable (any Error) -> Void) {
        let (promise, settle) = pendingToy()
        return (promise, { settle(.success($0)) }, { settle(.failure($0)) })
    }

    func fulfilled(_ value: Sentinel) -> Promise { settled(.success(value)) }

    func rejected(_ error: any Error) -> Promise { settled(.failure(error)) }

    /// One chain step that calls the handler matching the outcome, or passes the outcome on when it is missing.
    func then(
        _ promise: Promise, on queue: DispatchQueue?,
        onFulfilled: (@Sendable (Sentinel) -> HandlerResult<Promise>)?,
        onRejected: (@Sendable (any Error) -> HandlerResult<Promise>)?
    ) -> Promise {
        chain(promise, on: queue) { outcome in
            switch outcome {
            case .success(let value): onFulfilled.map { settling(with: $0(value)) } ?? settled(outcome)
            case .failure(let error): onRejected.map { settling(with: $0(error)) } ?? settled(outcome)
            }
        }
    }

    /// A pending promise settled by the suite's ``Assimilation`` helper.
    func assimilated(_ thenable: any Thenable) -> Promise {
        let (promise, settle) = pendingToy()
        Assimilation.resolve(thenable, settle)
        return promise
    }

    private func settling(with result: HandlerResult<Promise>) -> Promise {
        switch result {
        case .fulfill(let value): settled(.success(value))
        case .reject(let error): settled(.failure(error))
        case .adopt(let promise): promise
        case .assimilate(let thenable): assimilated(thenable)
        }
    }
}
