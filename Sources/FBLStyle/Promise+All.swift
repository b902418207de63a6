import Dispatch

/// Waits until all of the given promises are fulfilled.
///
/// The returned promise is fulfilled with their values in the given order once the last one is fulfilled, or
/// rejected with the error of the first one to be rejected.
/// - Parameters:
///   - queue: Accepted for source compatibility; the bookkeeping only moves resolutions and runs inline.
///   - promises: The promises to wait for.
/// - Returns: A promise of the values of `promises`, in the same order.
public func all<Value>(
    on queue: DispatchQueue = .promises,
    _ promises: Promise<Value>...
) -> Promise<[Value]> {
    all(on: queue, promises)
}

/// Waits until all of the given promises are fulfilled.
///
/// The returned promise is fulfilled with their values in the given order once the last one is fulfilled (at once
/// with `[]` when there are none), or rejected with the error of the first one to be rejected.
/// - Parameters:
///   - queue: Accepted for source compatibility; the bookkeeping only moves resolutions and runs inline.
///   - promises: The promises to wait for.
/// - Returns: A promise of the values of `promises`, in the same order.
public func all<Value, Container: Sequence>(
    on queue: DispatchQueue = .promises,
    _ promises: Container
) -> Promise<[Value]> where Container.Element == Promise<Value> {
    joinAll(Array(promises)) { values in values.map { $0 as! Value } }
}

/// Waits until both promises are fulfilled.
///
/// The returned promise is fulfilled with a tuple of their values, or rejected with the error of the first one to be
/// rejected.
/// - Parameters:
///   - queue: Accepted for source compatibility; the bookkeeping only moves resolutions and runs inline.
///   - promiseA: A promise of type `A`.
///   - promiseB: A promise of type `B`.
/// - Returns: A promise of a tuple of the values.
public func all<A, B>(
    on queue: DispatchQueue = .promises,
    _ promiseA: Promise<A>,
    _ promiseB: Promise<B>
) -> Promise<(A, B)> {
    joinAll([promiseA, promiseB]) { values in
        (Promise.valueForBlocks(values[0] as! A), Promise.valueForBlocks(values[1] as! B))
    }
}

/// Waits until all three promises are fulfilled.
///
/// The returned promise is fulfilled with a tuple of their values, or rejected with the error of the first one to be
/// rejected.
/// - Parameters:
///   - queue: Accepted for source compatibility; the bookkeeping only moves resolutions and runs inline.
///   - promiseA: A promise of type `A`.
///   - promiseB: A promise of type `B`.
///   - promiseC: A promise of type `C`.
/// - Returns: A promise of a tuple of the values.
public func all<A, B, C>(
    on queue: DispatchQueue = .promises,
    _ promiseA: Promise<A>,
    _ promiseB: Promise<B>,
    _ promiseC: Promise<C>
) -> Promise<(A, B, C)> {
    joinAll([promiseA, promiseB, promiseC]) { values in
        (
            Promise.valueForBlocks(values[0] as! A), Promise.valueForBlocks(values[1] as! B),
            Promise.valueForBlocks(values[2] as! C)
        )
    }
}

/// Waits until all four promises are fulfilled.
///
/// The returned promise is fulfilled with a tuple of their values, or rejected with the error of the first one to be
/// rejected.
/// - Parameters:
///   - queue: Accepted for source compatibility; the bookkeeping only moves resolutions and runs inline.
///   - promiseA: A promise of type `A`.
///   - promiseB: A promise of type `B`.
///   - promiseC: A promise of type `C`.
///   - promiseD: A promise of type `D`.
/// - Returns: A promise of a tuple of the values.
public func all<A, B, C, D>(
    on queue: DispatchQueue = .promises,
    _ promiseA: Promise<A>,
    _ promiseB: Promise<B>,
    _ promiseC: Promise<C>,
    _ promiseD: Promise<D>
) -> Promise<(A, B, C, D)> {
    joinAll([promiseA, promiseB, promiseC, promiseD]) { values in
        (
            Promise.valueForBlocks(values[0] as! A), Promise.valueForBlocks(values[1] as! B),
            Promise.valueForBlocks(values[2] as! C), Promise.valueForBlocks(values[3] as! D)
        )
    }
}

/// Fulfills the result with `makeValue(values)` once every input is fulfilled; rejects it with the first rejection.
private func joinAll<Result>(
    _ inputs: [any OutcomeObservable],
    _ makeValue: @escaping ([Any]) -> Result
) -> Promise<Result> {
    guard !inputs.isEmpty else { return Promise(resolved: .success(makeValue([]))) }
    let promise = Promise<Result>(pending: ())
    let countdown = Countdown(inputs.count)
    for (index, input) in inputs.enumerated() {
        input.observeOutcome { outcome in
            switch outcome {
            case .failure(let error):
                promise.reject(error)
            case .success:
                if let outcomes = countdown.settle(index, outcome) {
                    promise.fulfill(makeValue(outcomes.map { try! $0.get() }))
                }
            }
        }
    }
    return promise
}
