/// A foreign promise-like value, the Swift counterpart of an object with a `then` method in JavaScript.
///
/// The suite builds these itself, and some of them misbehave on purpose (A+ 2.3.3): their `then` throws, calls both
/// callbacks, calls one twice, calls one and then throws, or resolves with yet another thenable. An implementation
/// that declares ``Capabilities/assimilation`` must turn such a value into the state of a promise by the Promises/A+
/// resolution procedure:
///
/// - call ``then(_:_:)`` once, passing a `resolvePromise` and a `rejectPromise` callback;
/// - the first call of either callback wins; every later call, and a throw after a call, is ignored;
/// - `resolvePromise(.value(v))` fulfils with `v`; `resolvePromise(.thenable(t))` assimilates `t` in turn;
/// - `rejectPromise(e)` rejects with `e`; a throw from `then` before any call rejects with the thrown error.
public protocol Thenable: Sendable {
    /// Registers the two callbacks; may call them at once, later, from any thread, or never.
    func then(
        _ resolvePromise: @escaping @Sendable (ThenableValue) -> Void,
        _ rejectPromise: @escaping @Sendable (any Error) -> Void
    ) throws
}

/// What a ``Thenable`` passes to its `resolvePromise` callback: a plain value or another thenable.
///
/// A+ 2.3.3.3.1 says that when `resolvePromise` is called with `y`, the promise is resolved with `y` by the same
/// procedure, so `y` may itself be a thenable; this enum lets a typed Swift thenable say so.
public enum ThenableValue: Sendable {
    /// A plain value: the promise is fulfilled with it.
    case value(Sentinel)
    /// Another thenable: the promise assimilates it in turn.
    case thenable(any Thenable)
}
