// Hop.swift: a handler that runs its step on its queue (`on:`), written as an object so that hopping allocates no
// closure context.
//
// PromiseKit writes a chain method as `pipe { switch $0 { case .fulfilled(let value): on.async { … body(value) … } } }`.
// Written that way, a call allocates two closure contexts besides the promise it returns: the closure `pipe` keeps
// (the body, the promise, the queue, the flags) and the block handed to the queue (the body, the promise, the value).
// The handlers of the methods most chains are made of are objects instead, which hold all these parts and carry the
// value to the queue in a slot, `input` (`Handoff`, Core/Handoff.swift): `map` (`Transform`), `done` (`Consume`),
// `then` and `recover` with a thenable (`Follow`). The closure `pipe` keeps captures the handler alone, and the block
// is the handler's `stepWithInput` method applied to it; a closure that captures one object uses that object as its
// context, so neither allocates. A `map(on: queue)` allocates the promise it returns and its handler, and the hop
// costs Dispatch's block and nothing more. `catch`'s finalizer hops the same way (Catchable.swift).
//
// Each handler stores the user's closure in the shape of its method's parameter (`map`'s `(T) throws -> U`, `done`'s
// `(T) throws -> Void`), as given: a closure literal is emitted in the shape of the parameter it is passed to, and a
// field of another shape would convert it through a reabstraction thunk, an allocation whenever the closure captures
// anything. That is why `done` has a handler of its own rather than a `Transform` whose `Output` is `Void`.
//
// The protocol gives the handlers one `call`, one `stepWithInput` and one `receive`; it is never used as a type, and
// each method that makes a handler is `@inlinable`, so a client's release build specializes them for the concrete
// handler. The less used methods (`compactMap`, `tap`, `ensure`, a guarantee's, …) keep PromiseKit's closures.

import Dispatch

/// A handler that runs `step` with its input on `queue`, or inline if there is none (`on: nil`), carrying the input
/// to the queue in `input`, and resolves `promise`.
///
/// Conforming objects are `@unchecked Sendable`: the block sent to the queue captures them. Their one mutable field,
/// `input`, is written by `call` before the block is sent and read by the block, an order Dispatch guarantees; nothing
/// else touches it.
@usableFromInline
protocol Hop: AnyObject, Sendable {
    /// The value the handler receives.
    associatedtype Input
    /// The value of the promise the handler resolves.
    associatedtype Output
    /// The promise the chain method returns.
    var promise: Promise<Output> { get }
    /// The queue `step` runs on, or nil to run it inline.
    var queue: DispatchQueue? { get }
    /// The work-item flags of the hop.
    var flags: DispatchWorkItemFlags? { get }
    /// The input on its way to the queue: put by `call` just before it sends the block, taken by the block.
    var input: Handoff { get set }
    /// The handler's work, on the queue: calls the user's closure and resolves `promise`.
    func step(_ input: Input)
}

// guide:begin hop-call
extension Hop {
    /// Runs `step(input)` on the queue, or inline if there is none.
    @inlinable func call(_ input: Input) {
        guard let queue else { return step(input) }
        self.input.put(input)
        queue.dispatch(flags: flags, stepWithInput)
    }

    /// What the block sent to the queue runs: `step` with the input `call` left in `input`.
    @inlinable func stepWithInput() {
        step(input.take(as: Input.self))
    }
}
// guide:end hop-call

extension Hop {
    /// The handler `pipe` keeps for `map`, `done` and `then`: a value goes to `step` on the queue, a rejection passes
    /// on to `promise` at once, without a hop.
    @inlinable func receive(_ result: Result<Input>) {
        switch result {
        case .fulfilled(let value): call(value)
        case .rejected(let error): promise.seal(.rejected(error))
        }
    }

    /// Resolves `promise` with what `work` returns, or rejects it with the error `work` throws. `work` (the user's
    /// closure) runs before `promise` is read, so that the promise is not retained around the user's code.
    @inlinable func resolve(with work: () throws -> Output) {
        do {
            let output = try work()
            promise.seal(.fulfilled(output))
        } catch {
            promise.seal(.rejected(error))
        }
    }
}
