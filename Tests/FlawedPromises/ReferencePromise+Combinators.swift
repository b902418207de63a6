// Combinators and cancellation of the reference promise, built on `then`.
import Dispatch
import TestSupport

extension ReferencePromise {
    /// Cancels a pending promise: it is rejected with `CancellationError`.
    public func cancel() {
        reject(CancellationError())
    }

    /// Calls `completion` with every value in input order, or with the first rejection.
    public static func all(
        _ promises: [ReferencePromise], flaw: SubtleFlaw? = nil,
        completion: @escaping @Sendable (Result<[Value], any Error>) -> Void
    ) {
        let promises = inputsHeard(flaw == .allDropsRepeatedInputs ? distinct(promises) : promises, flaw: flaw)
        guard !promises.isEmpty else {
            completion(.success([]))
            return
        }
        if flaw == .combinatorOverRunningHandlersPromiseRejected,
            promises.contains(where: RunningHandler.isRunning(for:))
        {
            completion(.failure(ReferencePromiseError.resolvedWithItself))
            return
        }
        let values = Locked<[Value?]>(Array(repeating: nil, count: promises.count))
        let done = OnceFlag()
        let count = promises.count  // not `promises` in the handlers: each input would hold itself
        let queue = combinatorQueue()
        for (index, promise) in promises.enumerated() {
            _ = promise.then(
                on: queue,
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
                    if done.claim() || (flaw == .allCompletesAgainOnLaterRejection && count > 3) {
                        completion(.failure(error))
                    }
                    throw error
                })
        }
    }

    /// Settles like the first of `promises` to settle.
    public static func race(_ promises: [ReferencePromise], flaw: SubtleFlaw? = nil) -> ReferencePromise {
        if flaw == .combinatorOverRunningHandlersPromiseRejected,
            promises.contains(where: RunningHandler.isRunning(for:))
        {
            return ReferencePromise(error: ReferencePromiseError.resolvedWithItself, flaw: flaw)
        }
        let race = ReferencePromise(flaw: flaw)
        let queue = combinatorQueue()
        let inputs = Array(inputsHeard(promises, flaw: flaw).enumerated())
        for (index, promise) in flaw == .raceTakesTheLastSettledInput ? inputs.reversed() : inputs
        where !(flaw == .raceSkipsAlreadyRejectedInputs && promise.isRejected) {
            _ = promise.then(
                on: queue,
                { value in
                    race.fulfill(value)
                    return .value(value)
                },
                { error in
                    if !(flaw == .raceIgnoresRejectionsPastThirdInput && index > 2) { race.reject(error) }
                    throw error
                })
        }
        return race
    }

    /// Fulfils like the first of `promises` to fulfil; rejects with the last error once all have rejected.
    public static func any(_ promises: [ReferencePromise], flaw: SubtleFlaw? = nil) -> ReferencePromise {
        guard !promises.isEmpty || flaw == .anyOfNothingStaysPending else {
            return ReferencePromise(error: ReferencePromiseError.noInput, flaw: flaw)
        }
        if flaw == .combinatorOverRunningHandlersPromiseRejected,
            promises.contains(where: RunningHandler.isRunning(for:))
        {
            return ReferencePromise(error: ReferencePromiseError.resolvedWithItself, flaw: flaw)
        }
        let any = ReferencePromise(flaw: flaw)
        let rejections = Counter()
        let rejectedPromises = DistinctCounter()
        let count = promises.count
        let queue = combinatorQueue()
        let heard = inputsHeard(promises, flaw: flaw)
        for promise in flaw == .anyTakesTheLastFulfilledInput ? heard.reversed() : heard {
            let input = ObjectIdentifier(promise)
            _ = promise.then(
                on: queue,
                { value in
                    any.fulfill(value)
                    return .value(value)
                },
                { error in
                    let rejected =
                        flaw == .anyCountsRepeatedInputOnce ? rejectedPromises.add(input) : rejections.increment()
                    if rejected == count { any.reject(error) }
                    throw error
                })
        }
        return any
    }

    /// The serial queue a combinator hears its inputs on: it registers on them in input order, so of the inputs
    /// settled when it is made, the first in input order comes first (as in PromiseKit, Google Promises and
    /// JavaScript); the inputs that settle later come in the order they settle.
    private static func combinatorQueue() -> DispatchQueue {
        DispatchQueue(label: "ReferencePromise combinator")
    }

    /// The inputs a combinator registers on: all of them, but for ``SubtleFlaw/combinatorInHandlerSkipsPendingInputs``
    /// inside a handler, where only those settled already when some are.
    private static func inputsHeard(_ promises: [ReferencePromise], flaw: SubtleFlaw?) -> [ReferencePromise] {
        guard flaw == .combinatorInHandlerSkipsPendingInputs, RunningHandler.isRunning,
            promises.contains(where: \.isSettled)
        else { return promises }
        return promises.filter(\.isSettled)
    }

    /// `promises` without repetitions, in order of first appearance (``SubtleFlaw/allDropsRepeatedInputs`` only).
    private static func distinct(_ promises: [ReferencePromise]) -> [ReferencePromise] {
        promises.reduce(into: []) { kept, promise in
            if !kept.contains(where: { $0 === promise }) { kept.append(promise) }
        }
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
