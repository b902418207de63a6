import Dispatch
import Synchronization

/// Storage of `DispatchQueue.promises`.
private let defaultPromisesQueue = Mutex<DispatchQueue>(.main)

extension DispatchQueue {
    /// The default queue of all promise blocks when no `on:` queue is given: `.main` unless you change it.
    ///
    /// Setting it affects calls made afterwards, from any thread; the blocks already registered keep their queue.
    public static var promises: DispatchQueue {
        get { defaultPromisesQueue.withLock { $0 } }
        set { defaultPromisesQueue.withLock { $0 = newValue } }
    }
}
