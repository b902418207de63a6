// Transform.swift: the handlers of `map` (`Transform`) and `done` (`Consume`), which call the user's closure with the
// value on the handler's queue and resolve the returned promise with what it returns. Each is a `Hop` (Hop.swift),
// so that neither the closure `pipe` keeps nor the block sent to the queue allocates a context; each keeps the
// closure in its method's parameter shape, so that storing it needs no thunk. Two classes alike but for that shape,
// not one with an optional field per shape: the optional fields cost every operation more, inline ones included, than
// the second class costs anyone (Benchmarks/NOTES.md, "A handler object, measured").

import Dispatch

/// Calls `body` with the value on `queue` (inline if there is none) and resolves `promise` with its result, or rejects
/// it if `body` throws: the handler of `map` (and of `get`, which is a `map`).
///
/// `@unchecked Sendable`: see `Hop`.
@usableFromInline
final class Transform<Input, Output>: Hop, @unchecked Sendable {
    /// The promise `map` returns.
    @usableFromInline let promise = Promise<Output>(.pending)
    @usableFromInline let queue: DispatchQueue?
    @usableFromInline let flags: DispatchWorkItemFlags?
    /// `map`'s closure, in the shape of `map`'s parameter.
    @usableFromInline let body: (Input) throws -> Output
    @usableFromInline @exclusivity(unchecked) var input = Handoff()

    @inlinable init(
        on queue: DispatchQueue?, flags: DispatchWorkItemFlags?, _ body: @escaping (Input) throws -> Output
    ) {
        self.queue = queue
        self.flags = flags
        self.body = body
    }

    /// Calls `body` and resolves `promise` with its result, or rejects it with the error `body` throws.
    @inlinable func step(_ input: Input) {
        resolve { try body(input) }
    }

    deinit { assert(!input.holdsValue, "PromiseKitStyle: a hop's block was freed without running") }
}

/// Calls `body` with the value on `queue` (inline if there is none) and fulfils `promise` with `()`, or rejects it if
/// `body` throws: the handler of `done`.
///
/// `@unchecked Sendable`: see `Hop`.
@usableFromInline
final class Consume<Input>: Hop, @unchecked Sendable {
    /// The promise `done` returns.
    @usableFromInline let promise = Promise<Void>(.pending)
    @usableFromInline let queue: DispatchQueue?
    @usableFromInline let flags: DispatchWorkItemFlags?
    /// `done`'s closure, in the shape of `done`'s parameter (not a `Transform`'s, whose result is generic).
    @usableFromInline let body: (Input) throws -> Void
    @usableFromInline @exclusivity(unchecked) var input = Handoff()

    @inlinable init(on queue: DispatchQueue?, flags: DispatchWorkItemFlags?, _ body: @escaping (Input) throws -> Void) {
        self.queue = queue
        self.flags = flags
        self.body = body
    }

    /// Calls `body` and fulfils `promise`, or rejects it with the error `body` throws.
    @inlinable func step(_ input: Input) {
        resolve { try body(input) }
    }

    deinit { assert(!input.holdsValue, "PromiseKitStyle: a hop's block was freed without running") }
}
