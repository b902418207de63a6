import Dispatch

/// A queue carrying a `DispatchSpecificKey` value, so a handler can tell whether it runs on it.
struct MarkedQueue: Sendable {
    private static let key = DispatchSpecificKey<Int>()
    private static let counter = Locked(0)

    let queue: DispatchQueue
    let mark: Int

    init(label: String, concurrent: Bool) {
        mark = Self.counter.withLock { count in
            count += 1
            return count
        }
        queue = DispatchQueue(label: "PromiseConformance.\(label)", attributes: concurrent ? [.concurrent] : [])
        queue.setSpecific(key: Self.key, value: mark)
    }

    /// Whether the caller runs on this queue.
    var isCurrent: Bool { DispatchQueue.getSpecific(key: Self.key) == mark }
}
