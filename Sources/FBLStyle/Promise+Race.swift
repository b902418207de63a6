import Dispatch

/// Waits until the first of the given promises is settled.
///
/// The returned promise is resolved like the first of `promises` to be fulfilled or rejected.
/// - Precondition: `promises` is not empty (as in the original).
/// - Parameters:
///   - queue: Accepted for source compatibility; the bookkeeping only moves resolutions and runs inline.
///   - promises: The promises to race.
/// - Returns: A promise resolved like the first of `promises` to settle.
public func race<Value>(
    on queue: DispatchQueue = .promises,
    _ promises: Promise<Value>...
) -> Promise<Value> {
    race(on: queue, promises)
}

/// Waits until the first of the given promises is settled.
///
/// The returned promise is resolved like the first of `promises` to be fulfilled or rejected.
/// - Precondition: `promises` is not empty (as in the original).
/// - Parameters:
///   - queue: Accepted for source compatibility; the bookkeeping only moves resolutions and runs inline.
///   - promises: The promises to race.
/// - Returns: A promise resolved like the first of `promises` to settle.
public func race<Value>(
    on queue: DispatchQueue = .promises,
    _ promises: [Promise<Value>]
) -> Promise<Value> {
    precondition(!promises.isEmpty, "race(_:) needs at least one promise")
    let promise = Promise<Value>(pending: ())
    for input in promises {
        input.observe(on: nil) { resolution in
            promise.resolve(resolution)
        }
    }
    return promise
}
