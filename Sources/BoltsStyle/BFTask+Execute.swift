// Tasks made from a synchronous closure, Bolts-Swift's `Task(executor) { … }` and `Task.execute`.
//
// Overload resolution: a closure that contains `await` is `async`, so only `init(priority:operation:)`
// accepts it. A closure without `await` fits both that initializer and this one; Swift then prefers this
// one, whose synchronous parameter is the more specific type. `BFTask { "x" }` and `BFTask<String> { "x" }`
// therefore run the closure on `.default` (inline), as in Bolts-Swift, and `BFTask { try await load() }` is
// the `async` initializer. `init(_:)`, a task already holding a value, is disfavoured so that a closure is
// never taken for the value itself.

import PromisePlumbing

extension BFTask {
    /// Creates a task completed with the value `closure` returns, running it on `executor`.
    ///
    /// With ``BFExecutor/default`` or ``BFExecutor/immediate`` on a shallow stack the closure runs
    /// before the initializer returns, so the task has already completed:
    ///
    ///     let task = BFTask<String> { "x" }  // task.result == "x"
    ///
    /// If the closure throws, the task faults with that error (it is cancelled for ``BFCancelledError``).
    /// A closure that contains `await` selects ``init(priority:operation:)`` instead.
    ///
    /// - Parameters:
    ///   - executor: Where the closure runs; ``BFExecutor/default`` (right away) by default.
    ///   - closure: Produces the task's result.
    public convenience init(_ executor: BFExecutor = .default, closure: @escaping BFExecutionBlock<TResult>) {
        self.init()
        if let trampoline = executor.inlineTrampoline() {
            trampoline.run { trySetState(bfOutcome(closure)) }
        } else {
            // The closure runs once, on the executor (see `BFExecutor.execute`); the task's lock orders its completion.
            let task = UncheckedSendable(self)
            nonisolated(unsafe) let closure: () throws -> TResult = closure
            executor.hop { task.value.trySetState(bfOutcome(closure)) }
        }
    }

    /// Creates a task completed with the value `closure` returns, running it on `executor`; the same as
    /// ``init(_:closure:)``.
    ///
    /// If the closure throws, the task faults with that error (cancelled for ``BFCancelledError``).
    ///
    /// - Parameters:
    ///   - executor: Where the closure runs; ``BFExecutor/default`` (right away) by default.
    ///   - closure: Produces the task's result.
    /// - Returns: A task completed with the closure's outcome.
    public static func execute(
        _ executor: BFExecutor = .default,
        closure: @escaping BFExecutionBlock<TResult>
    ) -> BFTask<TResult> {
        BFTask(executor, closure: closure)
    }

    /// Creates a task that completes like the task `closure` returns, running it on `executor`.
    ///
    /// - Parameters:
    ///   - executor: Where the closure runs; ``BFExecutor/default`` (right away) by default.
    ///   - closure: Produces the task to follow.
    /// - Returns: A task that completes like the task the closure returns.
    public static func executeWithTask(
        _ executor: BFExecutor = .default,
        closure: @escaping BFExecutionBlock<BFTask<TResult>>
    ) -> BFTask<TResult> {
        BFTask<Void>(()).continueWithTask(executor) { _ in try closure() }
    }
}
