import Dispatch

/// Waits until all of the given promises are fulfilled.
///
/// The returned promise is fulfilled with their values in the given order once the last one is fulfilled, or
/// rejected with the error of the first one to be rejected.
/// - Parameters:
///   - queue: The queue the combining runs on: it observes each input there, as Google's `all` does.
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
///   - queue: The queue the combining runs on: it observes each input there, as Google's `all` does.
///   - promises: The promises to wait for.
/// - Returns: A promise of the values of `promises`, in the same order.
public func all<Value, Container: Sequence>(
    on queue: DispatchQueue = .promises,
    _ promises: Container
) -> Promise<[Value]> where Container.Element == Promise<Value> {
    joinAll(Array(promises), on: queue) { values in values.map { $0 as! Value } }
}

/// Waits until both promises are fulfilled.
///
/// The returned promise is fulfilled with a tuple of their values, or rejected with the error of the first one to be
/// rejected.
/// - Parameters:
///   - queue: The queue the combining runs on: it observes each input there, as Google's `all` does.
///   - promiseA: A promise of type `A`.
///   - promiseB: A promise of type `B`.
/// - Returns: A promise of a tuple of the values.
public func all<A, B>(
    on queue: DispatchQueue = .promises,
    _ promiseA: Promise<A>,
    _ promiseB: Promise<B>
) -> Promise<(A, B)> {
    joinAll([promiseA, promiseB], on: queue) { $0 }.then(on: queue) { values in
        (Promise.valueForBlocks(values[0] as! A), Promise.valueForBlocks(values[1] as! B))
    }
}

/// Waits until all three promises are fulfilled.
///
/// The returned promise is fulfilled with a tuple of their values, or rejected with the error of the first one to be
/// rejected.
/// - Parameters:
///   - queue: The queue the combining runs on: it observes each input there, as Google's `all` does.
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
    joinAll([promiseA, promiseB, promiseC], on: queue) { $0 }.then(on: queue) { values in
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
///   - queue: The queue the combining runs on: it observes each input there, as Google's `all` does.
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
    joinAll([promiseA, promiseB, promiseC, promiseD], on: queue) { $0 }.then(on: queue) { values in
        (
            Promise.valueForBlocks(values[0] as! A), Promise.valueForBlocks(values[1] as! B),
            Promise.valueForBlocks(values[2] as! C), Promise.valueForBlocks(values[3] as! D)
        )
    }
}

/// Fulfills the result with `makeValue(values)` in the first observation on `queue` that finds every input
/// fulfilled; rejects it with the error of the first rejection observed there (CombinedInputs).
private func joinAll<Result>(
    _ inputs: [any OutcomeObservable], on queue: DispatchQueue, _ makeValue: @escaping ([Any]) -> Result
) -> Promise<Result> {
    guard !inputs.isEmpty else { return Promise(resolved: .success(makeValue([]))) }
    let promise = Promise<Result>(pending: ())
    CombinedInputs.observe(inputs, on: queue) { outcome, all in
        // Once `promise` is settled an observation changes nothing (Google's calls fulfil or reject again, which do
        // nothing), so it returns at once: n inputs settled before their observations run cost n looks, not n * n.
        guard promise.isPending else { return }
        if case .failure(let error) = outcome { return promise.reject(error) }
        var values: [Any] = []
        values.reserveCapacity(all.count)
        for input in all {
            guard case .success(let value)? = input else { return }  // as Google's, stops at the first not fulfilled
            values.append(value)
        }
        promise.fulfill(makeValue(values))
    }
    return promise
}
