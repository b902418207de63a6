import Dispatch
import PromiseConformance

/// Plugs the Google Promises toy, ``ToyPromise``, into the conformance suite as `FBLStyleAdapter` plugs in
/// `Promise`: `then` runs its block on `queue`, or on a serial queue standing in for the main queue when the suite
/// leaves the choice to the implementation (Google's own default, the main queue, is not served here).
struct ToyPromiseAdapter: ToyAdapter {
    typealias Promise = ToyPromise<Sentinel>

    /// Where blocks run when the suite gives no queue: a serial queue, as Google's default (the main queue) is.
    static let mainQueueStandIn = DispatchQueue(label: "ToyPromiseAdapter main queue stand-in")

    /// ``mainQueueStandIn``, for the generated programs' driver to flush between steps.
    var defaultQueue: DispatchQueue? { Self.mainQueueStandIn }

    var name: String { "ToyPromise" }

    /// What the toy leaves out of FBLStyle: the cycle check that Google's original lacks too (2.3.1), and the stack
    /// guards (swift.deepChain).
    var deviations: [String: String] {
        [
            "2.3.1":
                "As in Google's FBLPromise, a promise that adopts itself is not detected: the block's promise is the "
                + "chained one, which then waits for itself and is never resolved. FBLStyle rejects it with "
                + "PromiseCycleError.",
            "swift.deepChain":
                "The toy frees a dropped pending chain by nested deinits (each promise's observer holds the next "
                + "promise), which overflows the clause's 1 MiB stack. FBLStyle releases the observers of a freed "
                + "promise in a loop (InlineDrain).",
            "swift.deepChain.dropped":
                "The same nested deinits, measured on the clause's large stack: the stack grows per link as an "
                + "unsettled chain is freed.",
        ]
    }

    func pendingToy() -> (promise: ToyPromise<Sentinel>, settle: @Sendable (Outcome) -> Void) {
        let promise = ToyPromise<Sentinel>()
        return (promise, { promise.resolve($0) })
    }

    func settled(_ outcome: Outcome) -> ToyPromise<Sentinel> { ToyPromise(outcome) }

    func chain(
        _ promise: ToyPromise<Sentinel>, on queue: DispatchQueue?,
        _ body: @escaping @Sendable (Outcome) -> ToyPromise<Sentinel>
    ) -> ToyPromise<Sentinel> {
        promise.then(on: queue ?? Self.mainQueueStandIn, body)
    }
}
