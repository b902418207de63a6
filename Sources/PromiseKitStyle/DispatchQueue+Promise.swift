import Dispatch

extension DispatchQueue {
    /// Runs `body` on this queue, asynchronously, with `flags` if given.
    ///
    /// `body` becomes the block Dispatch runs, converted once: inlined at a handler's closure literal, that is one
    /// allocation for the block and one for the literal's captures. (Wrapping `body` in a new closure for `async`, as
    /// a `@Sendable` parameter requires, would add the wrapper's context and a block around it.) Handlers
    /// are not `@Sendable` (PromiseKit's API), so the block is retyped as `@Sendable` here: the queue runs it once,
    /// after the promise that scheduled it sealed, and nothing else touches its captures meanwhile.
    @inlinable
    func dispatch(flags: DispatchWorkItemFlags?, _ body: @escaping () -> Void) {
        let block = unsafeBitCast(
            body as @convention(block) () -> Void, to: (@Sendable @convention(block) () -> Void).self)
        async(flags: flags ?? [], execute: block)
    }
}

extension Optional where Wrapped == DispatchQueue {
    /// Runs `body` on the queue, asynchronously, or inline when the queue is `nil` (`on: nil`). This is the only
    /// place a handler hops to a queue, so no handler given a queue ever runs inside the call that registered it.
    @inlinable
    func dispatch(flags: DispatchWorkItemFlags?, _ body: @escaping () -> Void) {
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
