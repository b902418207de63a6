import Dispatch
import PromiseConformance

/// Plugs ``ReferencePromise`` into the conformance suite, with every capability.
struct ReferenceAdapter: PromiseAdapter {
    var name: String { "Reference" }
    var capabilities: Capabilities { .everything }

    func pending() -> (
        promise: ReferencePromise<Sentinel>, fulfill: @Sendable (Sentinel) -> Void,
        reject: @Sendable (any Error) -> Void
    ) {
        let promise = ReferencePromise<Sentinel>()
        return (promise, { promise.fulfill($0) }, { promise.reject($0) })
    }

    func fulfilled(_ value: Sentinel) -> ReferencePromise<Sentinel> {
        ReferencePromise(value: value)
    }

    func rejected(_ error: any Error) -> ReferencePromise<Sentinel> {
        ReferencePromise(error: error)
    }

    func then(
        _ promise: ReferencePromise<Sentinel>, on queue: DispatchQueue?,
        onFulfilled: (@Sendable (Sentinel) -> HandlerResult<ReferencePromise<Sentinel>>)?,
        onRejected: (@Sendable (any Error) -> HandlerResult<ReferencePromise<Sentinel>>)?
    ) -> ReferencePromise<Sentinel> {
        var fulfilledStep: (@Sendable (Sentinel) throws -> Step<Sentinel>)?
        if let onFulfilled {
            fulfilledStep = { value in try step(onFulfilled(value)) }
        }
        var rejectedStep: (@Sendable (any Error) throws -> Step<Sentinel>)?
        if let onRejected {
            rejectedStep = { error in try step(onRejected(error)) }
        }
        return promise.then(on: queue, fulfilledStep, rejectedStep)
    }

    /// Maps what the suite's handler asks for onto the reference promise's own means.
    private func step(_ result: HandlerResult<ReferencePromise<Sentinel>>) throws -> Step<Sentinel> {
        switch result {
        case .fulfill(let value): return .value(value)
        case .reject(let error): throw error
        case .adopt(let promise): return .promise(promise)
        case .assimilate(let thenable): return .promise(assimilated(thenable))
        }
    }

    func assimilated(_ thenable: any Thenable) -> ReferencePromise<Sentinel> {
        let promise = ReferencePromise<Sentinel>()
        promise.assimilate { resolve, reject in
            try thenable.then(
                { value in
                    switch value {
                    case .value(let value): resolve(.value(value))
                    case .thenable(let inner): resolve(.promise(assimilated(inner)))
                    }
                }, reject)
        }
        return promise
    }

    func all(
        _ promises: [ReferencePromise<Sentinel>],
        completion: @escaping @Sendable (Result<[Sentinel], any Error>) -> Void
    ) {
        ReferencePromise.all(promises, completion: completion)
    }

    func race(_ promises: [ReferencePromise<Sentinel>]) -> ReferencePromise<Sentinel> {
        ReferencePromise.race(promises)
    }

    func any(_ promises: [ReferencePromise<Sentinel>]) -> ReferencePromise<Sentinel> {
        ReferencePromise.any(promises)
    }

    func cancellablePending() -> (
        promise: ReferencePromise<Sentinel>, fulfill: @Sendable (Sentinel) -> Void, cancel: @Sendable () -> Void
    ) {
        let promise = ReferencePromise<Sentinel>()
        return (promise, { promise.fulfill($0) }, { promise.cancel() })
    }

    func isCancellation(_ error: any Error) -> Bool {
        error is CancellationError
    }
}
