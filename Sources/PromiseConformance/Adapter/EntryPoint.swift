import Dispatch

/// One public way a library offers to register handlers (`continueOnSuccessWith`, `recover`, `then(on:)`, ...), so
/// that the suite runs over each form users write and not only the one the adapter's `then` uses.
///
/// An adapter lists its entry points in ``PromiseAdapter/entryPoints``. Each says which handlers it takes, which
/// ``HandlerResult`` cases a handler passed to it can express, whether it takes a queue, and implements the A+ `then`
/// through that form alone. The suite then routes through it every call it makes whose handlers fit: the deep-chain
/// clauses (`swift.deepChain.settled`, `swift.deepChain.dropped`), which know each link's kind, and the `then`
/// clauses whose handlers' kinds are known. A failure found that way names the entry point: "via
/// continueOnSuccessWith(.immediate): …".
///
/// A call fits an entry point when every handler it gives is in ``handlers``, every result those handlers return is
/// in ``results``, and it gives a queue exactly when ``takesQueue`` is true. The suite passes nil for a handler not in
/// ``handlers``, and may pass nil for one that is: the outcome that handler would see then passes through unchanged,
/// as for ``PromiseAdapter/then(_:on:onFulfilled:onRejected:)``.
public struct EntryPoint<Promise: Sendable>: Sendable {
    /// The signature of ``then``: the same as ``PromiseAdapter/then(_:on:onFulfilled:onRejected:)``'s.
    public typealias Then =
        @Sendable (
            _ promise: Promise, _ queue: DispatchQueue?,
            _ onFulfilled: (@Sendable (Sentinel) -> HandlerResult<Promise>)?,
            _ onRejected: (@Sendable (any Error) -> HandlerResult<Promise>)?
        ) -> Promise

    /// How users write it, e.g. `continueOnSuccessWith(.immediate)`: the suite's messages and case names use it.
    public let name: String
    /// The handlers it takes.
    public let handlers: HandlerKinds
    /// What a handler passed to it can express.
    public let results: ResultKinds
    /// Whether it takes a queue: the suite then always passes one, and otherwise always passes nil.
    public let takesQueue: Bool
    /// The A+ `then` through this form alone.
    public let then: Then

    /// An entry point named `name` that takes `handlers`, whose handlers can express `results`, that takes a queue
    /// when `takesQueue` is true, implemented by `then`.
    public init(
        _ name: String, handlers: HandlerKinds, results: ResultKinds, takesQueue: Bool = false, then: @escaping Then
    ) {
        self.name = name
        self.handlers = handlers
        self.results = results
        self.takesQueue = takesQueue
        self.then = then
    }
}
