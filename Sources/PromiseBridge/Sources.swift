// Reading the outcome of each style, once, with the one callback the style offers for it.

import BoltsStyle
import FBLStyle
import PromiseKitStyle

extension BFTask: SettlementSource {
    /// Registers a continuation on the `.immediate` executor: it runs on the thread that completes the task (through
    /// the per-thread trampoline when deeply nested), or at once if the task has completed.
    func subscribe(_ handler: @escaping SettlementHandler<TResult>) {
        _ = continueWith(.immediate) { (task: BFTask<TResult>) -> Void in
            handler(Settlement(completed: task))
        }
    }
}

extension Settlement {
    /// Reads a completed task: cancelled (also when it faulted with a cancellation error), faulted or succeeded.
    init(completed task: BFTask<Value>) {
        if task.cancelled {
            self = .cancelled
        } else if let error = task.error {
            self = Settlement.failure(error)
        } else if let value = task.result {
            self = .value(value)
        } else {
            preconditionFailure("PromiseBridge: a completed BFTask has no outcome")
        }
    }
}

extension PromiseKitStyle.Promise: SettlementSource {
    /// Registers with `pipe(to:)`: runs on the resolving thread (like `on: nil`), or at once if resolved.
    func subscribe(_ handler: @escaping SettlementHandler<T>) {
        pipe { handler(Settlement($0)) }
    }
}

extension Guarantee: SettlementSource {
    /// Registers with `pipe(to:)`: runs on the resolving thread (like `on: nil`), or at once if resolved.
    func subscribe(_ handler: @escaping SettlementHandler<T>) {
        pipe { handler(Settlement($0)) }
    }
}

extension FBLStyle.Promise: SettlementSource {
    /// Reads a resolved promise at once; otherwise chains `then` and `catch` on the bridge's private concurrent queue
    /// (FBLStyle's public blocks always run on a queue; its inline observers are internal to it).
    func subscribe(_ handler: @escaping SettlementHandler<Value>) {
        if isFulfilled, let value {
            handler(.value(value))
            return
        }
        if let error {
            handler(Settlement.failure(error))
            return
        }
        then(on: fblBridgeQueue) { (value: Value) -> Void in
            handler(.value(value))
        }.catch(on: fblBridgeQueue) { error in
            handler(Settlement.failure(error))
        }
    }
}
