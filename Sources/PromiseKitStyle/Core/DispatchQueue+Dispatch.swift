// DispatchQueue+Dispatch.swift: how every handler of PromiseKitStyle hops to its queue, or runs inline on `nil`.

import Dispatch

extension DispatchQueue {
    /// Runs `body` on this queue, asynchronously, with `flags` if given.
    ///
    /// `body` is the block Dispatch runs: inlined at a handler's closure literal, that is one allocation for the
    /// block and one for the literal's captures. It is `@Sendable` because Dispatch's block is; a handler's closure
    /// literal is written so (its captures are `nonisolated(unsafe)` copies of the user's closure and value) rather
    /// than wrapped here, since a wrapper would add a context of its own.
    @inlinable
    func dispatch(flags: DispatchWorkItemFlags?, _ body: @escaping @Sendable () -> Void) {
        async(flags: flags ?? [], execute: body)
    }
}

extension Optional where Wrapped == DispatchQueue {
    /// Runs `body` on the queue, asynchronously, or inline when the queue is `nil` (`on: nil`). This is the only
    /// place a handler hops to a queue, so no handler given a queue ever runs inside the call that registered it.
    @inlinable
    func dispatch(flags: DispatchWorkItemFlags?, _ body: @escaping @Sendable () -> Void) {
        switch self {
        case .none:
            body()
        case .some(let queue):
            queue.dispatch(flags: flags, body)
        }
    }
}
