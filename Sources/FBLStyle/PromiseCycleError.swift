/// The error a promise is rejected with when a block resolves it with itself (a `then` block returning the promise
/// `then` returned, for instance).
///
/// Google's FBLPromise has no such check: the promise observes itself, stays pending forever, and, since a pending
/// promise stays in ``Dispatch/DispatchGroup/promises`` until it is resolved or deallocated, every later
/// ``waitForPromises(timeout:)`` in the process times out. This package rejects instead, as Promises/A+ 2.3.1 asks.
/// It is a separate type so that `switch` statements over ``PromiseError`` written for the original stay exhaustive.
public struct PromiseCycleError: Error, Equatable, CustomStringConvertible {
    /// Creates the error.
    public init() {}

    /// A one-line explanation.
    public var description: String { "a promise was resolved with itself" }
}
