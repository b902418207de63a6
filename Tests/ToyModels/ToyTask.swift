// BoltsStyle's mechanism as a toy: the callback array under a lock and the executors, nothing else. The real core is
// Sources/BoltsStyle/Core/BFTask.swift; what the toy leaves out (the depth guard and trampoline of long inline chains, the
// iterative release of a dropped chain, cancellation, `whenAll`) is what the conformance matrix in docs/guide.md
// shows it missing. The region between the guide markers is shown verbatim in the DocC article "How BFTask works"
// (ArticleCodeTests checks it), beside the core's invariants.
import Foundation

// guide:begin toy-task
/// Where a continuation runs: Bolts' executors, cut down to two.
enum ToyExecutor: Sendable {
    case immediate  // right away, on the thread that completes the task (or adds to a completed one)
    case queue(DispatchQueue)  // later, on a dispatch queue

    func execute(_ work: @escaping @Sendable () -> Void) {
        if case .queue(let queue) = self { queue.async(execute: work) } else { work() }
    }
}

/// A box filled once, with the callbacks waiting for it: the state and the callbacks under one lock.
final class ToyTask<T: Sendable>: @unchecked Sendable {
    typealias Outcome = Result<T, any Error>
    private let lock = NSLock()
    private var outcome: Outcome?
    private var callbacks: [@Sendable (Outcome) -> Void] = []
    private var draining = false  // completed, but the completing thread is still running the callbacks

    init() {}
    init(_ outcome: Outcome) { self.outcome = outcome }

    /// Completes the task if it is pending; of racing calls exactly one returns true, and runs the callbacks.
    @discardableResult func trySet(_ outcome: Outcome) -> Bool {
        lock.lock()
        guard self.outcome == nil else {
            lock.unlock()
            return false
        }
        self.outcome = outcome
        while true {  // swap the callbacks out, run them outside the lock, again for any added meanwhile
            let taken = callbacks
            callbacks = []
            draining = !taken.isEmpty
            lock.unlock()
            if taken.isEmpty { return true }
            for callback in taken { callback(outcome) }
            lock.lock()
        }
    }

    /// Bolts' `continueWithTask`: once this task completes, runs `block` on `executor`; the task `block` returns
    /// completes the one returned here.
    func continueWith<U>(_ executor: ToyExecutor, _ block: @escaping @Sendable (Outcome) -> ToyTask<U>) -> ToyTask<U> {
        let derived = ToyTask<U>()
        addCallback { outcome in executor.execute { block(outcome).addCallback { derived.trySet($0) } } }
        return derived
    }

    private func addCallback(_ callback: @escaping @Sendable (Outcome) -> Void) {
        lock.lock()
        guard let outcome, !draining else {
            callbacks.append(callback)  // pending or draining: the completing thread runs it after the others
            return lock.unlock()
        }
        lock.unlock()
        callback(outcome)  // completed: at once, on this thread
    }
}
// guide:end toy-task
