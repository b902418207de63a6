import Deferred
import Dispatch
import PromiseConformance

import class Task.Task

/// bignerdranch/Deferred's task operators as its users chain them, each with the signature of
/// ``DeferredAdapter/then(_:on:onFulfilled:onRejected:)`` (see `EntryPointSupport.swift`). The adapter's own `then` is
/// `FutureProtocol.andThen(upon:start:)` over the task's `Result`, wrapped in a `Task` with no cancellation handler;
/// these are the `Task` methods, which on Linux keep the upstream task's `cancel` (`map`, `recover`) or a
/// cancellation token (`andThen`, `fallback`).
extension DeferredAdapter {
    /// The four calls below, as ``PromiseAdapter/entryPoints``, for the suite to run its deep-chain clauses and the
    /// `then` clauses whose handlers fit through each of them as well as through the adapter's `then`.
    public var entryPoints: [EntryPoint<DeferredTask>] {
        let adopting: ResultKinds = [.value, .throw, .adopt, .assimilate]
        return [
            EntryPoint(
                "map(upon:)", handlers: .onFulfilled, results: [.value, .throw], takesQueue: true, then: mapEntry),
            EntryPoint(
                "andThen(upon:)", handlers: .onFulfilled, results: adopting, takesQueue: true, then: andThenEntry),
            EntryPoint(
                "recover(upon:)", handlers: .onRejected, results: [.value, .throw], takesQueue: true, then: recoverEntry
            ),
            EntryPoint(
                "fallback(upon:)", handlers: .onRejected, results: adopting, takesQueue: true, then: fallbackEntry),
        ]
    }

    /// `Task.map(upon:transform:)` (`Sources/Task/TaskMap.swift:40-60`): `task.map(upon: queue) { value in ... }`,
    /// the transform returning the next value or throwing. On Linux the new task is `Task(future, uponCancel: cancel)`
    /// (`:59`), which holds the upstream task.
    ///
    /// - Handlers: onFulfilled only; a failure passes through.
    /// - Results: value, throw.
    /// - Queue: yes (the executor); with none, `DispatchQueue.any()`, the library's default.
    public func mapEntry(
        _ promise: DeferredTask, on queue: DispatchQueue?,
        onFulfilled: (@Sendable (Sentinel) -> HandlerResult<DeferredTask>)?,
        onRejected: (@Sendable (any Error) -> HandlerResult<DeferredTask>)?
    ) -> DeferredTask {
        if onRejected != nil { entryPointRefuses("Deferred Task.map", "onRejected") }
        let next = promise.task.map(upon: queue ?? .any()) { (value: Sentinel) throws -> Sentinel in
            guard let onFulfilled else { return value }
            return try plainValue(onFulfilled(value), "Deferred Task.map")
        }
        return DeferredTask(task: next)
    }

    /// `Task.andThen(upon:start:)` (`Sources/Task/TaskAndThen.swift:44-80`): `task.andThen(upon: queue) { value in
    /// ... }`, the closure returning the next task to adopt or throwing. On Linux the new task keeps a `Deferred<Void>`
    /// token whose filling cancels the started task (`:48`, `:62`, `:76-78`).
    ///
    /// - Handlers: onFulfilled only; a failure passes through.
    /// - Results: value (`Task(success:)`), throw, adopt, assimilate (a task over the suite's helper).
    /// - Queue: yes (the executor); with none, `DispatchQueue.any()`.
    public func andThenEntry(
        _ promise: DeferredTask, on queue: DispatchQueue?,
        onFulfilled: (@Sendable (Sentinel) -> HandlerResult<DeferredTask>)?,
        onRejected: (@Sendable (any Error) -> HandlerResult<DeferredTask>)?
    ) -> DeferredTask {
        if onRejected != nil { entryPointRefuses("Deferred Task.andThen", "onRejected") }
        let next = promise.task.andThen(upon: queue ?? .any()) { (value: Sentinel) throws -> Task<Sentinel> in
            guard let onFulfilled else { return Task(success: value) }
            return try task(for: onFulfilled(value))
        }
        return DeferredTask(task: next)
    }

    /// `Task.recover(upon:substituting:)` (`Sources/Task/TaskRecovery.swift:41-66`): `task.recover(upon: queue) {
    /// error in ... }`, the substitution returning a value or throwing. On Linux the new task is `Task(future,
    /// uponCancel: cancel)` (`:64`), as `map`'s is.
    ///
    /// - Handlers: onRejected only; a success passes through.
    /// - Results: value, throw.
    /// - Queue: yes (the executor); with none, `DispatchQueue.any()`.
    public func recoverEntry(
        _ promise: DeferredTask, on queue: DispatchQueue?,
        onFulfilled: (@Sendable (Sentinel) -> HandlerResult<DeferredTask>)?,
        onRejected: (@Sendable (any Error) -> HandlerResult<DeferredTask>)?
    ) -> DeferredTask {
        if onFulfilled != nil { entryPointRefuses("Deferred Task.recover", "onFulfilled") }
        let next = promise.task.recover(upon: queue ?? .any()) { (error: any Error) throws -> Sentinel in
            guard let onRejected else { throw error }
            return try plainValue(onRejected(error), "Deferred Task.recover")
        }
        return DeferredTask(task: next)
    }

    /// `Task.fallback(upon:to:)` (`Sources/Task/TaskFallback.swift:43-86`; on Linux a cancellation token, `:47`,
    /// `:82-84`, as `andThen` keeps): `task.fallback(upon: queue) { error in ... }`, the closure returning the task to
    /// restart with or throwing.
    ///
    /// - Handlers: onRejected only; a success passes through.
    /// - Results: value (`Task(success:)`), throw, adopt, assimilate.
    /// - Queue: yes (the executor); with none, `DispatchQueue.any()`.
    public func fallbackEntry(
        _ promise: DeferredTask, on queue: DispatchQueue?,
        onFulfilled: (@Sendable (Sentinel) -> HandlerResult<DeferredTask>)?,
        onRejected: (@Sendable (any Error) -> HandlerResult<DeferredTask>)?
    ) -> DeferredTask {
        if onFulfilled != nil { entryPointRefuses("Deferred Task.fallback", "onFulfilled") }
        let next = promise.task.fallback(upon: queue ?? .any()) { (error: any Error) throws -> Task<Sentinel> in
            guard let onRejected else { throw error }
            return try task(for: onRejected(error))
        }
        return DeferredTask(task: next)
    }

    /// A value or a thrown error: what a closure that returns a plain value can express.
    private func plainValue(_ result: HandlerResult<DeferredTask>, _ entryPoint: String) throws -> Sentinel {
        switch result {
        case .fulfill(let value): return value
        case .reject(let error): throw error
        case .adopt: entryPointRefuses(entryPoint, "adopt")
        case .assimilate: entryPointRefuses(entryPoint, "assimilate")
        }
    }

    /// The task a closure returns (or the error it throws) for what the handler asks for.
    private func task(for result: HandlerResult<DeferredTask>) throws -> Task<Sentinel> {
        switch result {
        case .fulfill(let value): return Task(success: value)
        case .reject(let error): throw error
        case .adopt(let other): return other.task
        case .assimilate(let thenable): return assimilated(thenable).task
        }
    }
}
