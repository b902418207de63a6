import Dispatch
import PromiseConformance

/// Plugs ``ReferencePromise`` into the conformance suite, with every capability. `Codable`, so that
/// `Conformance.runIsolated` can run it in a child process.
public struct ReferenceAdapter: PromiseAdapter, Codable {
    /// What every promise the adapter makes gets wrong, or nil for the correct reference.
    public let flaw: SubtleFlaw?

    /// An adapter for reference promises with `flaw` (nil: the correct reference).
    public init(flaw: SubtleFlaw? = nil) {
        self.flaw = flaw
    }

    /// `Reference`, or `Reference+<flaw>` for a flawed one.
    public var name: String { flaw.map { "Reference+\($0.rawValue)" } ?? "Reference" }
    /// Every capability the suite knows.
    public var capabilities: Capabilities { .everything }

    /// The serial queue the reference runs handlers with no queue on, for the generated programs' driver to flush.
    public var defaultQueue: DispatchQueue? { referenceDefaultQueue(flaw) }

    /// A pending promise and its resolvers.
    public func pending() -> (
        promise: ReferencePromise<Sentinel>, fulfill: @Sendable (Sentinel) -> Void,
        reject: @Sendable (any Error) -> Void
    ) {
        let promise = ReferencePromise<Sentinel>(flaw: flaw)
        return (promise, { promise.fulfill($0) }, { promise.reject($0) })
    }

    /// A promise made fulfilled.
    public func fulfilled(_ value: Sentinel) -> ReferencePromise<Sentinel> {
        ReferencePromise(value: value, flaw: flaw)
    }

    /// A promise made rejected.
    public func rejected(_ error: any Error) -> ReferencePromise<Sentinel> {
        ReferencePromise(error: error, flaw: flaw)
    }

    /// The promise's `then`, each handler's result mapped onto a ``Step`` (or a throw).
    public func then(
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

    /// A promise assimilating `thenable`.
    public func assimilated(_ thenable: any Thenable) -> ReferencePromise<Sentinel> {
        assimilated(thenable, level: 1)
    }

    /// A promise assimilating `thenable`, which is nested `level` deep (1: not nested in another thenable).
    private func assimilated(_ thenable: any Thenable, level: Int) -> ReferencePromise<Sentinel> {
        let promise = ReferencePromise<Sentinel>(flaw: flaw)
        let ignored: @Sendable (any Error) -> Void = { _ in }
        promise.assimilate { resolve, reject in
            try thenable.then(
                { value in
                    switch value {
                    case .value(let value): resolve(.value(value))
                    case .thenable(let inner): resolve(.promise(assimilated(inner, level: level + 1)))
                    }
                }, flaw == .deepThenableRejectionLost && level > 3 ? ignored : reject)
        }
        return promise
    }

    /// ``ReferencePromise/all(_:flaw:completion:)``.
    public func all(
        _ promises: [ReferencePromise<Sentinel>],
        completion: @escaping @Sendable (Result<[Sentinel], any Error>) -> Void
    ) {
        ReferencePromise.all(promises, flaw: flaw, completion: completion)
    }

    /// ``ReferencePromise/race(_:flaw:)``.
    public func race(_ promises: [ReferencePromise<Sentinel>]) -> ReferencePromise<Sentinel> {
        ReferencePromise.race(promises, flaw: flaw)
    }

    /// ``ReferencePromise/any(_:flaw:)``.
    public func any(_ promises: [ReferencePromise<Sentinel>]) -> ReferencePromise<Sentinel> {
        ReferencePromise.any(promises, flaw: flaw)
    }

    /// A pending promise, its fulfil function and its cancel function.
    public func cancellablePending() -> (
        promise: ReferencePromise<Sentinel>, fulfill: @Sendable (Sentinel) -> Void, cancel: @Sendable () -> Void
    ) {
        let promise = ReferencePromise<Sentinel>(flaw: flaw)
        return (promise, { promise.fulfill($0) }, { promise.cancel() })
    }

    /// Whether `error` is a cancellation: `CancellationError`.
    public func isCancellation(_ error: any Error) -> Bool {
        error is CancellationError
    }
}
