import Dispatch
import Foundation

/// Waits until all of the given promises are settled, and succeeds if at least one of them is fulfilled.
///
/// The returned promise is fulfilled with a ``Maybe`` for each promise, in the given order, once all are settled and
/// at least one is fulfilled (at once with `[]` when there are none); when all are rejected it is rejected with the
/// error of the last one to be rejected.
/// - Parameters:
///   - queue: Accepted for source compatibility; the bookkeeping only moves resolutions and runs inline.
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
/// at least one is fulfilled (at once with `[]` when there are none); when all are rejected it is rejected with the
/// error of the last one to be rejected.
/// - Parameters:
///   - queue: Accepted for source compatibility; the bookkeeping only moves resolutions and runs inline.
///   - promises: The promises to wait for.
/// - Returns: A promise of the outcomes of `promises`, in the same order.
public func any<Value, Container: Sequence>(
    on queue: DispatchQueue = .promises,
    _ promises: Container
) -> Promise<[Maybe<Value>]> where Container.Element == Promise<Value> {
    joinAny(Array(promises)) { outcomes in outcomes.map { Maybe<Value>($0) } }
}

/// Waits until both promises are settled, and succeeds if at least one of them is fulfilled.
///
/// The returned promise is fulfilled with a tuple of ``Maybe``s once both are settled and at least one is fulfilled;
/// when both are rejected it is rejected with the error of the last one to be rejected.
/// - Parameters:
///   - queue: Accepted for source compatibility; the bookkeeping only moves resolutions and runs inline.
///   - promiseA: A promise of type `A`.
///   - promiseB: A promise of type `B`.
/// - Returns: A promise of a tuple of the outcomes.
public func any<A, B>(
    on queue: DispatchQueue = .promises,
    _ promiseA: Promise<A>,
    _ promiseB: Promise<B>
) -> Promise<(Maybe<A>, Maybe<B>)> {
    joinAny([promiseA, promiseB]) { outcomes in (Maybe(outcomes[0]), Maybe(outcomes[1])) }
}

/// Waits until all three promises are settled, and succeeds if at least one of them is fulfilled.
///
/// The returned promise is fulfilled with a tuple of ``Maybe``s once all are settled and at least one is fulfilled;
/// when all are rejected it is rejected with the error of the last one to be rejected.
/// - Parameters:
///   - queue: Accepted for source compatibility; the bookkeeping only moves resolutions and runs inline.
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
    joinAny([promiseA, promiseB, promiseC]) { outcomes in
        (Maybe(outcomes[0]), Maybe(outcomes[1]), Maybe(outcomes[2]))
    }
}

/// Fulfills the result with `makeValue(outcomes)` once every input is settled and one is fulfilled; else rejects it.
private func joinAny<Result>(
    _ inputs: [any OutcomeObservable],
    _ makeValue: @escaping ([Swift.Result<Any, any Error>]) -> Result
) -> Promise<Result> {
    guard !inputs.isEmpty else { return Promise(resolved: .success(makeValue([]))) }
    let promise = Promise<Result>(pending: ())
    let countdown = Countdown(inputs.count)
    for (index, input) in inputs.enumerated() {
        input.observeOutcome { outcome in
            guard let outcomes = countdown.settle(index, outcome) else { return }
            if outcomes.contains(where: { if case .success = $0 { true } else { false } }) {
                promise.fulfill(makeValue(outcomes))
            } else if case .failure(let error) = outcome {
                promise.reject(error)
            }
        }
    }
    return promise
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
