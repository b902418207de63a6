// Follow.swift: the handler of `then` and `recover`, which makes their promise follow the thenable `body` returns.
//
// Every other handler hands its queue a `@Sendable` closure literal that captures `nonisolated(unsafe)` copies of the
// user's closure and value (Thenable.swift). This one cannot: it names the thenable type `U`, and a `@Sendable`
// closure that names `U` captures `U`'s metatype, which Swift does not treat as `Sendable` (`U`'s conformance to
// `Thenable` might be isolated to an actor). So the handler is an object that holds all it needs, and carries the
// value to the queue in a slot (`Handoff`, Core/Handoff.swift): the closure `pipe` keeps captures the object alone,
// and the block sent to the queue is the object's `stepWithInput` method applied to it. A closure that captures one
// object uses that object as its context, so neither allocates one.
//
// `body` is stored in the shape of `then`'s parameter, `(Input) throws -> U`: a closure literal is emitted in the
// shape of the parameter it is passed to, and storing it in a field of another shape would convert it through a
// reabstraction thunk, an allocation when the closure captures anything. (`map` and `done` keep PromiseKit's closure
// literals: Benchmarks/NOTES.md, "A handler object, measured", says what an object cost them.)

import Dispatch

/// Calls a handler's `body` on its queue and makes `promise` follow the thenable `body` returns: the handler of
/// `then` and of `recover`.
///
/// `@unchecked Sendable`: the block sent to the queue captures it. Its one mutable field, `input`, is written by
/// `call` before the block is sent and read by the block, an order Dispatch guarantees; nothing else touches it.
@usableFromInline
final class Follow<Input, U: Thenable>: @unchecked Sendable {
    /// The promise `then` or `recover` returns.
    @usableFromInline let promise = Promise<U.T>(.pending)
    @usableFromInline let queue: DispatchQueue?
    @usableFromInline let flags: DispatchWorkItemFlags?
    /// The errors `recover` handles (`then` handles none, and leaves the default).
    @usableFromInline let policy: CatchPolicy
    @usableFromInline let body: (Input) throws -> U
    /// The value on its way to the queue: put by `call` just before it sends the block, taken by the block.
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

    // guide:begin follow-call
    /// Runs `step(input)` on the queue, or inline if there is none (`on: nil`).
    @inlinable func call(_ input: Input) {
        guard let queue else { return step(input) }
        self.input.put(input)
        queue.dispatch(flags: flags, stepWithInput)
    }

    /// What the block sent to the queue runs: `step` with the value `call` left in `input`. The block is this method
    /// applied to the object, a `@Sendable` function value (the object is `Sendable`) that names no `U`.
    @inlinable func stepWithInput() {
        step(input.take(as: Input.self))
    }
    // guide:end follow-call

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
