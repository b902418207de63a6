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
    // The promises cross to `queue` whatever their value type; each is observed under its own lock.
    let (race, inputs) = (UncheckedSendable(promise), UncheckedSendable(promises))
    queue.async(group: promisesGroup) {
        let promise = race.value
        for input in inputs.value {
            input.observe(on: queue) { resolution in
                promise.resolve(resolution)
            }
        }
    }
    return promise
}
