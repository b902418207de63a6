// Follow.swift: the handler of `then` and `recover`, which makes their promise follow the thenable `body` returns.
// It is a `Hop` (Hop.swift), so that neither the closure `pipe` keeps nor the block sent to the queue allocates a
// context. Here the object is needed for a second reason: the handler names the thenable type `U`, and a `@Sendable`
// closure that names `U` captures `U`'s metatype, which Swift does not treat as `Sendable` (`U`'s conformance to
// `Thenable` might be isolated to an actor), so a closure literal could not be handed to the queue at all.

import Dispatch

/// Calls a handler's `body` on its queue and makes `promise` follow the thenable `body` returns: the handler of
/// `then` and of `recover`.
///
/// `@unchecked Sendable`: see `Hop`.
@usableFromInline
final class Follow<Input, U: Thenable>: Hop, @unchecked Sendable {
    /// The promise `then` or `recover` returns.
    @usableFromInline let promise = Promise<U.T>(.pending)
    @usableFromInline let queue: DispatchQueue?
    @usableFromInline let flags: DispatchWorkItemFlags?
    /// The errors `recover` handles (`then` handles none, and leaves the default).
    @usableFromInline let policy: CatchPolicy
    /// The closure of `then` or `recover`, in the shape of their parameter.
    @usableFromInline let body: (Input) throws -> U
    @usableFromInline @exclusivity(unchecked) var input = Handoff()

    @inlinable init(
        on queue: DispatchQueue?, flags: DispatchWorkItemFlags?, policy: CatchPolicy = .allErrors,
        _ body: @escaping (Input) throws -> U
    ) {
        self.queue = queue
        self.flags = flags
        self.policy = policy
        self.body = body
    }

    deinit { assert(!input.holdsValue, "PromiseKitStyle: a hop's block was freed without running") }

    /// Calls `body` and makes `promise` follow the thenable it returns; rejects `promise` if `body` throws or returns
    /// `promise` itself (`PMKError.returnedSelf`).
    @inlinable func step(_ input: Input) {
        do {
            let next = try body(input)
            guard next !== promise else { throw PMKError.returnedSelf }
            let promise = self.promise
            next.pipe { promise.seal($0) }
        } catch {
            promise.seal(.rejected(error))
        }
    }
}
