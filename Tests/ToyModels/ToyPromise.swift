// FBLStyle's mechanism as a toy: observers under a lock, each block handed to its queue, and one process-wide dispatch
// group entered by every pending promise and every block in flight. The real core is Sources/FBLStyle/Core/Promise.swift.
// What the toy leaves out (the inline hand-overs and their drain loop, the iterative release of a dropped chain, the
// cycle check Google's original lacks too, the error-valued fulfilment rule, the combinators) is what the
// conformance matrix in docs/guide.md shows it missing. The region between the guide markers is shown verbatim in the
// DocC article "How observers and the global group work" (ArticleCodeTests checks it), beside the core's invariants.
import Foundation

// guide:begin toy-promise
/// The one group of the process: every pending promise and every block in flight is inside it.
let toyPromisesGroup = DispatchGroup()

/// Waits until no promise is pending and no block is queued or running: `waitForPromises`.
func waitForToyPromises(timeout: Double) -> Bool {
    toyPromisesGroup.wait(timeout: .now() + timeout) == .success
}

/// Observers under a lock; resolving hands each observer's block to its queue, inside the group.
final class ToyPromise<Value: Sendable>: @unchecked Sendable {
    typealias Resolution = Result<Value, any Error>
    private let lock = NSLock()
    private var resolution: Resolution?
    private var observers: [(queue: DispatchQueue, block: @Sendable (Resolution) -> Void)] = []

    init() { toyPromisesGroup.enter() }  // pending: inside the group until resolved (or freed)
    init(_ resolution: Resolution) { self.resolution = resolution }  // resolved: never inside
    deinit { if resolution == nil { toyPromisesGroup.leave() } }  // nobody can resolve it any more

    func resolve(_ resolution: Resolution) {
        lock.lock()
        guard self.resolution == nil else { return lock.unlock() }  // resolved already: change nothing
        self.resolution = resolution
        for observer in observers {  // dispatched under the lock, so in order: `async` runs nothing here
            observer.queue.async(group: toyPromisesGroup) { observer.block(resolution) }
        }
        observers = []
        lock.unlock()
        toyPromisesGroup.leave()  // after its blocks entered: the group never looks idle while work is on its way
    }

    /// Google's `then`: `block` runs on `queue`, always later, never inside this call nor inside `resolve`; the
    /// promise it returns resolves the one returned here.
    func then<U>(on queue: DispatchQueue, _ block: @escaping @Sendable (Resolution) -> ToyPromise<U>) -> ToyPromise<U> {
        let chained = ToyPromise<U>()
        observe(on: queue) { block($0).observe(on: queue) { chained.resolve($0) } }
        return chained
    }

    private func observe(on queue: DispatchQueue, _ block: @escaping @Sendable (Resolution) -> Void) {
        lock.lock()
        defer { lock.unlock() }
        if let resolution {
            queue.async(group: toyPromisesGroup) { block(resolution) }
        } else {
            observers.append((queue, block))
        }
    }
}
// guide:end toy-promise
