import Dispatch
import PromisePlumbing

extension Promise {
    #if CheckedHandlers
        /// The block type of the "async" initializer: receives the functions that fulfill and reject the new promise. Under CheckedHandlers, `@Sendable (@escaping @Sendable (Value) -> Void, @escaping @Sendable (any Error) -> Void) throws -> Void`.
        public typealias Async =
            @Sendable (@escaping @Sendable (Value) -> Void, @escaping @Sendable (any Error) -> Void) throws -> Void
    #else
        /// The block type of the "async" initializer: receives the functions that fulfill and reject the new promise.
        public typealias Async = (@escaping (Value) -> Void, @escaping (any Error) -> Void) throws -> Void
    #endif

    /// Creates a pending promise and runs `work` asynchronously on `queue` to resolve it.
    ///
    /// `work` receives `fulfill` and `reject` functions; it may call one of them at once or keep them and call one
    /// later, from any thread. Only the first call counts. An error thrown by `work` rejects the promise.
    /// - Parameters:
    ///   - queue: The queue to run `work` on.
    ///   - work: A block that starts the work and eventually resolves the promise.
    public convenience init(on queue: DispatchQueue = .promises, _ work: @escaping Async) {
        self.init(pending: ())
        #if !CheckedHandlers
            // The block is not `Sendable` (Google's API): it crosses to `queue` once, and nothing else touches it.
            nonisolated(unsafe) let work = work
        #endif
        let promise = UncheckedSendable(self)  // resolved under its lock, from any thread
        queue.async(group: promisesGroup) {
            do {
                try work({ promise.value.fulfill($0) }, { promise.value.reject($0) })
            } catch {
                promise.value.reject(error)
            }
        }
    }
}
