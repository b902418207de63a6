/// The priority ``aheadOfTheQueue(_:)`` runs its body at: above the medium priority every test starts at.
public let aheadOfTheQueuePriority = TaskPriority.high

/// Runs `body` as a task of high priority and returns its value: for work that runs on Swift concurrency's cooperative
/// pool while a hang guard counts wall-clock time, such as the guide's scenarios in the `async` style, whose every step
/// after an `await` needs a thread of that pool.
///
/// Swift Testing starts every test of the process at once, each as a task of medium priority on the cooperative pool,
/// which has one thread per core. The pool runs the jobs of one priority in the order they came, so a scenario's next
/// step, enqueued behind the starts of hundreds of tests, waits until those have run: over 100 s on a 2-core machine
/// whose cores are busy with other work, and its hang guard runs out while it waits. Here the body, and every task it
/// starts without a priority of its own (`Task {}` and child tasks inherit it), runs at high priority: its jobs go
/// before the medium-priority ones still waiting, and wait only for a thread of the pool to come free.
///
///     let run = await aheadOfTheQueue { await PromiseTour.run(on: backend, in: style, ui: ui, timeLimit: limit) }
///
/// The task is not a child of the caller's: cancelling the test does not cancel it (the hang guard ends it).
public func aheadOfTheQueue<Value: Sendable>(_ body: @escaping @Sendable () async -> Value) async -> Value {
    await Task(priority: aheadOfTheQueuePriority, operation: body).value
}
