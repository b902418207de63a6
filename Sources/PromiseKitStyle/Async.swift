// Swift concurrency, which PromiseKit 8 only half has: `async()` on both types (PromiseKit's, but without its hop
// through `conf.Q.return`, i.e. the main queue) and creation from an `async` closure (the name the other styles use).

import PromisePlumbing

/// The continuation `async()` resumes from the resolving thread; the value crosses over in an unchecked box because
/// `T` need not be Sendable (the awaiting caller is the only one to receive it).
typealias Resumption<V> = UnsafeContinuation<UncheckedSendable<V>, Never>

extension Promise {
    /// Suspends until this promise resolves; returns the value or throws the error.
    ///
    /// Resumes straight from the resolving thread, never through a DispatchQueue, so it works where nothing serves
    /// the main queue. If the awaiting task is cancelled and this promise came from `init(priority:operation:)`, the
    /// cancellation is forwarded to that operation's task; otherwise the promise is awaited regardless.
    nonisolated(nonsending) public func async() async throws -> T {
        if let result { return try result.get() }
        let outcome = await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: Resumption<Result<T>>) in
                box.pipe { continuation.resume(returning: UncheckedSendable($0)) }
            }
        } onCancel: { [task] in
            task?.cancel()
        }
        return try outcome.value.get()
    }

    /// A promise settled by `operation`, run in a new unstructured `Task`. A thrown `CancellationError` rejects the
    /// promise with `PMKError.cancelled` (which `catch` skips by default); any other error rejects it as is.
    ///
    ///     Promise { try await api.fetchUser() }.done(on: queue) { user in ... }
    public convenience init(
        priority: TaskPriority? = nil, operation: @escaping @Sendable () async throws -> T
    ) {
        self.init(report: .none)
        let box = UncheckedSendable(self.box)  // sealed from the Swift task, under its barrier, whatever `T`
        task = Task(priority: priority) {
            do {
                box.value.seal(.fulfilled(try await operation()))
            } catch is CancellationError {
                box.value.seal(.rejected(PMKError.cancelled))
            } catch {
                box.value.seal(.rejected(error))
            }
        }
    }
}

extension Guarantee {
    /// Suspends until this guarantee resolves and returns the value, resuming straight from the resolving thread.
    /// Cancelling the awaiting task is forwarded to the operation of `init(priority:operation:)`, if any.
    nonisolated(nonsending) public func async() async -> T {
        if let value = sealedValue { return value }
        let outcome = await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: Resumption<T>) in
                box.pipe { continuation.resume(returning: UncheckedSendable($0)) }
            }
        } onCancel: { [task] in
            task?.cancel()
        }
        return outcome.value
    }

    /// A guarantee resolved with the value `operation` returns, run in a new unstructured `Task`.
    ///
    ///     Guarantee { await cache.load() }.done(on: queue) { items in ... }
    public convenience init(priority: TaskPriority? = nil, operation: @escaping @Sendable () async -> T) {
        self.init(report: .none)
        let box = UncheckedSendable(self.box)  // sealed from the Swift task, under its barrier, whatever `T`
        task = Task(priority: priority) { _ = box.value.seal(await operation()) }
    }
}
