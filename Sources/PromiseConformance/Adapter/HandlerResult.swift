/// What a handler passed to ``PromiseAdapter/then(_:on:onFulfilled:onRejected:)`` tells the derived promise to do.
///
/// In JavaScript a handler returns a value, throws, or returns a promise or a thenable, and the Promises/A+
/// resolution procedure tells them apart at run time. In typed Swift the suite says which one it means, and the
/// adapter maps each case onto its implementation's own way of doing it (return, `throw`, return a promise, ...).
public enum HandlerResult<Promise: Sendable>: Sendable {
    /// The handler returned a plain value: the derived promise is fulfilled with it (A+ 2.2.7.1, 2.3.4).
    case fulfill(Sentinel)
    /// The handler threw: the derived promise is rejected with the error (A+ 2.2.7.2).
    case reject(any Error)
    /// The handler returned a promise of the same implementation: the derived promise adopts its state (A+ 2.3.2).
    case adopt(Promise)
    /// The handler returned a foreign promise-like value: the derived promise assimilates it (A+ 2.3.3).
    ///
    /// The suite only returns this from handlers when the adapter declares ``Capabilities/assimilation``.
    case assimilate(any Thenable)
}

extension HandlerResult {
    /// The value to return, or the error to throw, from a library's closure that returns a value (`map`,
    /// `continueWith`, `then { value -> Value }`), for an ``EntryPoint`` that declares ``ResultKinds/value`` and
    /// ``ResultKinds/throw`` alone: the suite routes no other result through such a form.
    public func value() throws -> Sentinel {
        switch self {
        case .fulfill(let value): return value
        case .reject(let error): throw error
        case .adopt, .assimilate: preconditionFailure("an entry point that returns a value cannot adopt")
        }
    }
}
