import Dispatch

extension Promise {
    /// The block type of the "async" initializer: receives the functions that fulfill and reject the new promise.
    public typealias Async = (@escaping (Value) -> Void, @escaping (any Error) -> Void) throws -> Void

    /// Creates a pending promise and runs `work` asynchronously on `queue` to resolve it.
    ///
    /// `work` receives `fulfill` and `reject` functions; it may call one of them at once or keep them and call one
    /// later, from any thread. Only the first call counts. An error thrown by `work` rejects the promise.
    /// - Parameters:
    ///   - queue: The queue to run `work` on.
    ///   - work: A block that starts the work and eventually resolves the promise.
    public convenience init(on queue: DispatchQueue = .promises, _ work: @escaping Async) {
        self.init(pending: ())
        nonisolated(unsafe) let work = work
        queue.async(group: promisesGroup) {
            do {
                try work({ self.fulfill($0) }, { self.reject($0) })
            } catch {
                self.reject(error)
            }
        }
    }
}
