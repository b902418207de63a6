import Dispatch

/// The queues a clause made: each a ``MarkedQueue`` a handler can recognise, and each flushed by the grace wait
/// (``CaseClock/waitGrace()``) before it sleeps.
final class ClauseQueues: Sendable {
    /// Every queue made so far, in order.
    private let made = Locked<[DispatchQueue]>([])

    /// A new queue the suite can recognise from inside a handler, serial or `concurrent`.
    func marked(_ label: String, concurrent: Bool = false) -> MarkedQueue {
        let marked = MarkedQueue(label: label, concurrent: concurrent)
        made.withLock { $0.append(marked.queue) }
        return marked
    }

    /// Every queue made so far, in order.
    var all: [DispatchQueue] { made.withLock { $0 } }
}
