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

/// Used by `DispatchQueue.async(.promise)` to pick PromiseKit's overload over Dispatch's.
public enum PMKNamespacer {
    /// The only case: write `.promise`.
    case promise
}

extension DispatchQueue {
    /// Runs `body` on this queue and returns a promise of its result (rejected if it throws).
    ///
    ///     DispatchQueue.global().async(.promise) { try md5(input) }.done { md5 in ... }
    public final func async<T>(
        _: PMKNamespacer, group: DispatchGroup? = nil, qos: DispatchQoS = .default,
        flags: DispatchWorkItemFlags = [], execute body: @escaping () throws -> T
    ) -> Promise<T> {
        let promise = Promise<T>(.pending)
        let box = promise.box
        let work = UncheckedSendable(body)
        async(group: group, qos: qos, flags: flags) {
            do {
                box.seal(.fulfilled(try work.value()))
            } catch {
                box.seal(.rejected(error))
            }
        }
        return promise
    }

    /// Runs `body` on this queue and returns a guarantee of its result.
    ///
    ///     DispatchQueue.global().async(.promise) { md5(input) }.done { md5 in ... }
    public final func async<T>(
        _: PMKNamespacer, group: DispatchGroup? = nil, qos: DispatchQoS = .default,
        flags: DispatchWorkItemFlags = [], execute body: @escaping () -> T
    ) -> Guarantee<T> {
        let guarantee = Guarantee<T>(.pending)
        let box = guarantee.box
        let work = UncheckedSendable(body)
        async(group: group, qos: qos, flags: flags) { box.seal(work.value()) }
        return guarantee
    }
}
