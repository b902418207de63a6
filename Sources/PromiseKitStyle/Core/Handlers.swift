// Handlers.swift: the list of handlers a box keeps while pending or draining (PromiseKit's `Handlers`, a class
// holding an array there; a value here, carried in the phase of `BoxStateMachine`).
//
// Most promises get one handler, so the first is stored inline and an array is allocated only for a second one.
// The list holds closures only, so its layout does not depend on `R`: the box's unspecialized `deinit` destroys it
// without looking up generic metadata.

/// The handlers of a pending box: the first one inline, more in an array allocated only for a second handler.
@usableFromInline
struct Handlers<R> {
    /// The first handler appended, or nil while the list is empty.
    @usableFromInline var first: ((R) -> Void)?
    /// The handlers appended after the first, in order; nil until a second one is appended.
    @usableFromInline var more: [(R) -> Void]?

    /// An empty list. Always inlined: `PMKBox.init` is not specialized.
    @inlinable @inline(__always) init() {}

    /// A list of one handler (what `PMKBox.pipe` runs when the value is already there).
    @inlinable init(_ handler: @escaping (R) -> Void) { first = handler }

    /// Whether no handler is waiting.
    @inlinable var isEmpty: Bool { first == nil }

    /// How many handlers are waiting (for `debugDescription`).
    var count: Int { first == nil ? 0 : 1 + (more?.count ?? 0) }

    /// Adds `handler` after the others.
    @inlinable mutating func append(_ handler: @escaping (R) -> Void) {
        if first == nil {
            first = handler
        } else if more == nil {
            more = [handler]
        } else {
            more!.append(handler)
        }
    }

    /// Returns the handlers and leaves this list empty.
    @inlinable mutating func take() -> Handlers<R> {
        var taken = Handlers()
        swap(&taken, &self)
        return taken
    }

    /// Runs each handler with `value`, in the order appended.
    @inlinable func run(_ value: R) {
        first?(value)
        for handler in more ?? [] { handler(value) }
    }
}
