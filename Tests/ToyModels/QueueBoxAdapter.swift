import Dispatch
import PromiseConformance

/// Plugs the PromiseKit toy, ``QueueBox``, into the conformance suite as `PromiseKitStyleAdapter` plugs in `Promise`:
/// a promise is a box of an outcome, and `then` runs its body on `queue`, or on a serial queue standing in for the
/// main queue when the suite leaves the choice to the implementation (PromiseKit's own default, the main queue, is not
/// served here).
struct QueueBoxAdapter: ToyAdapter {
    typealias Promise = QueueBox<Result<Sentinel, any Error>>

    /// Where bodies run when the suite gives no queue: a serial queue, as PromiseKit's default (the main queue) is.
    static let mainQueueStandIn = DispatchQueue(label: "QueueBoxAdapter main queue stand-in")

    /// ``mainQueueStandIn``, for the generated programs' driver to flush between steps.
    var defaultQueue: DispatchQueue? { Self.mainQueueStandIn }

    var name: String { "QueueBox" }

    /// What the toy leaves out of PromiseKitStyle: the `returnedSelf` check (2.3.1) and the stack guards
    /// (swift.deepChain).
    var deviations: [String: String] {
        [
            "2.3.1":
                "The toy's then has no returnedSelf check (PromiseKit's is in then, not in the box): a body that "
                + "returns the very box then returned pipes that box into itself, and it is never sealed.",
            "swift.deepChain":
                "The toy frees a dropped pending chain by nested deinits (each box's handler holds the next box), "
                + "which overflows the clause's 1 MiB stack. PMKBox's deinit releases a chain in a loop.",
            "swift.deepChain.dropped":
                "The same nested deinits, measured on the clause's large stack: the stack grows per link as an "
                + "unsettled chain is freed.",
        ]
    }

    func pendingToy() -> (promise: QueueBox<Outcome>, settle: @Sendable (Outcome) -> Void) {
        let box = QueueBox<Outcome>()
        return (box, { box.seal($0) })
    }

    func settled(_ outcome: Outcome) -> QueueBox<Outcome> {
        let box = QueueBox<Outcome>()
        box.seal(outcome)
        return box
    }

    func chain(
        _ promise: QueueBox<Outcome>, on queue: DispatchQueue?,
        _ body: @escaping @Sendable (Outcome) -> QueueBox<Outcome>
    ) -> QueueBox<Outcome> {
        promise.then(on: queue ?? Self.mainQueueStandIn, body)
    }
}
