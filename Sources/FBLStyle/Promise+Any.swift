import Dispatch
import Foundation

/// Waits until all of the given promises are settled, and succeeds if at least one of them is fulfilled.
///
/// The returned promise is fulfilled with a ``Maybe`` for each promise, in the given order, once all are settled and
/// at least one is fulfilled (with `[]` when there are none, still on `queue`); when all are rejected it is rejected
/// with the error of the input whose observation on `queue` first finds them all settled, as in Google's `any`.
/// - Parameters:
///   - queue: The queue the combining runs on: it observes each input there, and makes the result there, as Google's
///     `any` does.
///   - promises: The promises to wait for.
/// - Returns: A promise of the outcomes of `promises`, in the same order.
public func any<Value>(
    on queue: DispatchQueue = .promises,
    _ promises: Promise<Value>...
) -> Promise<[Maybe<Value>]> {
    any(on: queue, promises)
}

/// Waits until all of the given promises are settled, and succeeds if at least one of them is fulfilled.
///
/// The returned promise is fulfilled with a ``Maybe`` for each promise, in the given order, once all are settled and
/// at least one is fulfilled (with `[]` when there are none, still on `queue`); when all are rejected it is rejected
/// with the error of the input whose observation on `queue` first finds them all settled, as in Google's `any`.
/// - Parameters:
///   - queue: The queue the combining runs on: it observes each input there, and makes the result there, as Google's
///     `any` does.
///   - promises: The promises to wait for.
/// - Returns: A promise of the outcomes of `promises`, in the same order.
public func any<Value, Container: Sequence>(
    on queue: DispatchQueue = .promises,
    _ promises: Container
) -> Promise<[Maybe<Value>]> where Container.Element == Promise<Value> {
    joinAny(Array(promises), on: queue) { outcomes in outcomes.map { Maybe<Value>($0) } }
}

/// Waits until both promises are settled, and succeeds if at least one of them is fulfilled.
///
/// The returned promise is fulfilled with a tuple of ``Maybe``s once both are settled and at least one is fulfilled;
/// when both are rejected it is rejected with the error of the input whose observation on `queue` first
/// finds them all settled, as in Google's `any`.
/// - Parameters:
///   - queue: The queue the combining runs on: it observes each input there, and makes the result there, as Google's
///     `any` does.
///   - promiseA: A promise of type `A`.
///   - promiseB: A promise of type `B`.
/// - Returns: A promise of a tuple of the outcomes.
public func any<A, B>(
    on queue: DispatchQueue = .promises,
    _ promiseA: Promise<A>,
    _ promiseB: Promise<B>
) -> Promise<(Maybe<A>, Maybe<B>)> {
    joinAny([promiseA, promiseB], on: queue) { outcomes in (Maybe(outcomes[0]), Maybe(outcomes[1])) }
}

/// Waits until all three promises are settled, and succeeds if at least one of them is fulfilled.
///
/// The returned promise is fulfilled with a tuple of ``Maybe``s once all are settled and at least one is fulfilled;
/// when all are rejected it is rejected with the error of the input whose observation on `queue` first
/// finds them all settled, as in Google's `any`.
/// - Parameters:
///   - queue: The queue the combining runs on: it observes each input there, and makes the result there, as Google's
///     `any` does.
///   - promiseA: A promise of type `A`.
///   - promiseB: A promise of type `B`.
///   - promiseC: A promise of type `C`.
/// - Returns: A promise of a tuple of the outcomes.
public func any<A, B, C>(
    on queue: DispatchQueue = .promises,
    _ promiseA: Promise<A>,
    _ promiseB: Promise<B>,
    _ promiseC: Promise<C>
) -> Promise<(Maybe<A>, Maybe<B>, Maybe<C>)> {
    joinAny([promiseA, promiseB, promiseC], on: queue) { outcomes in
        (Maybe(outcomes[0]), Maybe(outcomes[1]), Maybe(outcomes[2]))
    }
}

/// Fulfills the result with `makeValue(outcomes)`, made on `queue`, once the first observation on `queue` finds every
/// input settled and one fulfilled; rejects it with the error of that observation's input when none is fulfilled
/// (CombinedInputs). With no input it is `makeValue([])`, also made on `queue`.
private func joinAny<Result>(
    _ inputs: [any OutcomeObservable], on queue: DispatchQueue,
    _ makeValue: @escaping ([Swift.Result<Any, any Error>]) -> Result
) -> Promise<Result> {
    nonisolated(unsafe) let makeValue = makeValue
    guard !inputs.isEmpty else { return Promise(resolved: .success([])).then(on: queue) { makeValue($0) } }
    let outcomes = Promise<[Swift.Result<Any, any Error>]>(pending: ())
    CombinedInputs.observe(inputs, on: queue) { outcome, all in
        guard outcomes.isPending, !all.contains(where: { $0 == nil }) else { return }
        let settled = all.map { $0! }
        let oneFulfilled = settled.contains { if case .success = $0 { true } else { false } }
        if case .failure(let error) = outcome, !oneFulfilled {
            outcomes.reject(error)
        } else {
            outcomes.fulfill(settled)
        }
    }
    return outcomes.then(on: queue) { makeValue($0) }
}

/// The outcome of one promise passed to `any`: the value it was fulfilled with or the error it was rejected with.
public enum Maybe<Value> {
    /// The promise was fulfilled with this value.
    case value(Value)
    /// The promise was rejected with this error.
    case error(any Error)

    /// Creates a `Maybe` holding a value.
    public init(_ value: Value) { self = .value(value) }

    /// Creates a `Maybe` holding an error.
    public init(_ error: any Error) { self = .error(error) }

    /// Unboxes an outcome collected by `any`.
    init(_ outcome: Result<Any, any Error>) {
        switch outcome {
        case .success(let value): self = .value(Promise.valueForBlocks(value as! Value))
        case .failure(let error): self = .error(error)
        }
    }

    /// The value, or `nil` when this holds an error.
    public var value: Value? {
        if case .value(let value) = self { return value }
        return nil
    }

    /// The error, or `nil` when this holds a value.
    public var error: (any Error)? {
        if case .error(let error) = self { return error }
        return nil
    }
}

// Under the trait CheckedHandlers a `Maybe` crosses threads with the outcomes of `any`, so it is `Sendable` where its
// value is (without the trait the promise carrying it is `Sendable` whatever its value, as in the original).
#if CheckedHandlers
    extension Maybe: Sendable where Value: Sendable {}
#endif

extension Maybe: Equatable where Value: Equatable {
    /// Two values are equal when they are `==`; two errors when they are equal as `NSError`s (domain, code, user
    /// info), as in the original.
    public static func == (lhs: Maybe, rhs: Maybe) -> Bool {
        switch (lhs, rhs) {
        case (.value(let lhs), .value(let rhs)): return lhs == rhs
        case (.error(let lhs), .error(let rhs)): return (lhs as NSError).isEqual(rhs as NSError)
        case (.value, .error), (.error, .value): return false
        }
    }
}
