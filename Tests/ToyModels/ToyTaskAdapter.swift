import Dispatch
import PromiseConformance

/// Plugs the Bolts toy, ``ToyTask``, into the conformance suite as `BoltsStyleAdapter` plugs in `BFTask`: `then` is
/// one `continueWith` on `.queue(queue)`, or on `.immediate` when the suite leaves the choice to the implementation
/// (BoltsStyle's adapter uses `.default`, which runs inline too, up to a nesting depth).
struct ToyTaskAdapter: ToyAdapter {
    typealias Promise = ToyTask<Sentinel>

    var name: String { "ToyTask" }

    /// BoltsStyle's deviations that the toy shares (2.2.4, 2.3.1), and its own: the stack (swift.deepChain).
    var deviations: [String: String] {
        [
            "2.2.4":
                "An .immediate continuation runs inline, on the thread that completes the task or on the caller's "
                + "thread when the task has completed already, as BFExecutor.default and .immediate do.",
            "2.3.1":
                "A continuation that returns the very task continueWith returned is not detected: the task waits for "
                + "itself and never completes, as in Bolts.",
            "swift.deepChain":
                "The toy runs a chain of .immediate continuations as nested calls and frees a dropped pending chain "
                + "by nested deinits: either overflows the clause's 1 MiB stack. BFTask's depth guard, trampoline and "
                + "iterative release are what keep both off the stack.",
            "swift.deepChain.settled":
                "The toy runs a chain of continuations whose task completes inline as nested calls, measured on the "
                + "clause's large stack: the stack grows per link. BFTask's depth guard and trampoline keep it flat.",
            "swift.deepChain.dropped":
                "The same nested calls and nested deinits, measured on the clause's large stack: the stack grows per "
                + "link, settling or dropping a chain.",
        ]
    }

    func pendingToy() -> (promise: ToyTask<Sentinel>, settle: @Sendable (Outcome) -> Void) {
        let task = ToyTask<Sentinel>()
        return (task, { task.trySet($0) })
    }

    func settled(_ outcome: Outcome) -> ToyTask<Sentinel> { ToyTask(outcome) }

    func chain(
        _ promise: ToyTask<Sentinel>, on queue: DispatchQueue?,
        _ body: @escaping @Sendable (Outcome) -> ToyTask<Sentinel>
    ) -> ToyTask<Sentinel> {
        promise.continueWith(queue.map { .queue($0) } ?? .immediate, body)
    }
}
