// Follow.swift: the handler of `then` and `recover`, which makes their promise follow the thenable `body` returns.
//
// Every other handler hands a queue a `@Sendable` closure literal that captures `nonisolated(unsafe)` copies of the
// user's closure and value (Thenable.swift). This one cannot: it names the thenable type `U`, and a `@Sendable`
// closure that names `U` captures `U`'s metatype, which Swift does not treat as `Sendable` (`U`'s conformance to
// `Thenable` might be isolated to an actor). So the handler is an object, and the closure Dispatch runs calls its
// `step` through a function value, whose type names no `U`. The object holds all the handler needs, as `PMKFinalizer`
// does for `catch`, so the closure `pipe` keeps captures it alone and needs no context of its own; a function value
// made from one of its methods needs none either. A hop therefore costs what any other handler's costs: one
// allocation for the block's captures and one for the block.

import Dispatch

/// Calls a handler's `body` on its queue and makes `promise` follow the thenable `body` returns: the handler of
/// `then` and of `recover`.
@usableFromInline
final class Follow<Input, U: Thenable> {
    /// The promise `then` or `recover` returns.
    @usableFromInline let promise = Promise<U.T>(.pending)
    @usableFromInline let queue: DispatchQueue?
    @usableFromInline let flags: DispatchWorkItemFlags?
    /// The errors `recover` handles (`then` handles none, and leaves the default).
    @usableFromInline let policy: CatchPolicy
    @usableFromInline let body: (Input) throws -> U

    @inlinable init(
        on queue: DispatchQueue?, flags: DispatchWorkItemFlags?, policy: CatchPolicy = .allErrors,
        _ body: @escaping (Input) throws -> U
    ) {
        self.queue = queue
        self.flags = flags
        self.policy = policy
        self.body = body
    }

    /// Runs `step(input)` on the queue, or inline if there is none (`on: nil`). The block's captures are unchecked
    /// copies: it runs once, after the promise that scheduled it sealed, and nothing else touches them meanwhile.
    @inlinable func call(_ input: Input) {
        guard let queue else { return step(input) }
        nonisolated(unsafe) let (step, input) = (step, input)
        queue.dispatch(flags: flags) { step(input) }
    }

    /// Calls `body` and makes `promise` follow the thenable it returns; rejects `promise` if `body` throws or returns
    /// `promise` itself (`PMKError.returnedSelf`).
    @inlinable func step(_ input: Input) {
        do {
            let next = try body(input)
            guard next !== promise else { throw PMKError.returnedSelf }
            let promise = self.promise
            next.pipe { promise.box.seal($0) }
        } catch {
            promise.box.seal(.rejected(error))
        }
    }
}
