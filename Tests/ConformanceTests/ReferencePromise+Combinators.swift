// Combinators and cancellation of the reference promise, built on `then`.
import Dispatch
import TestSupport

extension ReferencePromise {
    /// Cancels a pending promise: it is rejected with `CancellationError`.
    func cancel() {
        reject(CancellationError())
    }

    /// Calls `completion` with every value in input order, or with the first rejection.
    static func all(
        _ promises: [ReferencePromise], completion: @escaping @Sendable (Result<[Value], any Error>) -> Void
    ) {
        guard !promises.isEmpty else {
            completion(.success([]))
            return
        }
        let values = Locked<[Value?]>(Array(repeating: nil, count: promises.count))
        let done = OnceFlag()
        for (index, promise) in promises.enumerated() {
            _ = promise.then(
                { value in
                    let all = values.withLock { values -> [Value]? in
                        values[index] = value
                        let all = values.compactMap { $0 }
                        return all.count == values.count ? all : nil
                    }
                    if let all, done.claim() { completion(.success(all)) }
                    return .value(value)
                },
                { error in
                    if done.claim() { completion(.failure(error)) }
                    throw error
                })
        }
    }

    /// Settles like the first of `promises` to settle.
    static func race(_ promises: [ReferencePromise]) -> ReferencePromise {
        let race = ReferencePromise()
        for promise in promises {
            _ = promise.then(
                { value in
                    race.fulfill(value)
                    return .value(value)
                },
                { error in
                    race.reject(error)
                    throw error
                })
        }
        return race
    }

    /// Fulfils like the first of `promises` to fulfil; rejects with the last error once all have rejected.
    static func any(_ promises: [ReferencePromise]) -> ReferencePromise {
        guard !promises.isEmpty else { return ReferencePromise(error: ReferencePromiseError.noInput) }
        let any = ReferencePromise()
        let rejections = Counter()
        let count = promises.count
        for promise in promises {
            _ = promise.then(
                { value in
                    any.fulfill(value)
                    return .value(value)
                },
                { error in
                    if rejections.increment() == count { any.reject(error) }
                    throw error
                })
        }
        return any
    }
}

/// A thread-safe counter.
final class Counter: Sendable {
    private let value = Locked(0)

    /// Adds one and returns the new value.
    func increment() -> Int {
        value.withLock { value in
            value += 1
            return value
        }
    }
}
