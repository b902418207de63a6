import Dispatch
import PromisePlumbing

/// Waits until the first of the given promises is settled.
///
/// The returned promise is resolved like the first of `promises` to be fulfilled or rejected.
/// - Precondition: `promises` is not empty (as in the original).
/// - Parameters:
///   - queue: The queue the race runs on: it observes each input there, as Google's `race` does.
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
///   - queue: The queue the race runs on: it observes each input there, as Google's `race` does.
///   - promises: The promises to race.
/// - Returns: A promise resolved like the first of `promises` to settle.
public func race<Value>(
    on queue: DispatchQueue = .promises,
    _ promises: [Promise<Value>]
) -> Promise<Value> {
    precondition(!promises.isEmpty, "race(_:) needs at least one promise")
    let promise = Promise<Value>(pending: ())
    let race = UncheckedSendable((promise: promise, inputs: promises))  // observed on `queue`, under each lock
    queue.async(group: promisesGroup) {
        let promise = race.value.promise
        for input in race.value.inputs {
            input.observe(on: queue) { resolution in
                promise.resolve(resolution)
            }
        }
    }
    return promise
}
