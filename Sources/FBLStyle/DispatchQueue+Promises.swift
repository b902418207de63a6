import Dispatch
import PromisePlumbing

/// Guards `defaultPromisesQueue`.
private let defaultPromisesQueueLock = Lock()
/// Storage of `DispatchQueue.promises`, guarded by `defaultPromisesQueueLock`.
nonisolated(unsafe) private var defaultPromisesQueue = DispatchQueue.main

extension DispatchQueue {
    /// The default queue of all promise blocks when no `on:` queue is given: `.main` unless you change it.
    ///
    /// Setting it affects calls made afterwards, from any thread; the blocks already registered keep their queue.
    public static var promises: DispatchQueue {
        get { defaultPromisesQueueLock.withLock { defaultPromisesQueue } }
        set { defaultPromisesQueueLock.withLock { defaultPromisesQueue = newValue } }
    }
}
