import Dispatch

/// A promise of some adapter, with its type erased so that clauses can be written once for every adapter.
struct ErasedPromise: Sendable {
    let base: any Sendable
}

/// The adapter a clause talks to: any ``PromiseAdapter`` with its `Promise` type erased.
struct ErasedAdapter: Sendable {
    typealias Pending = (
        promise: ErasedPromise, fulfill: @Sendable (Sentinel) -> Void, reject: @Sendable (any Error) -> Void
    )
    typealias Cancellable = (
        promise: ErasedPromise, fulfill: @Sendable (Sentinel) -> Void, cancel: @Sendable () -> Void
    )
    typealias FulfilledHandler = @Sendable (Sentinel) -> HandlerResult<ErasedPromise>
    typealias RejectedHandler = @Sendable (any Error) -> HandlerResult<ErasedPromise>

    let name: String
    /// The adapter's Swift type, as a report names it.
    let typeName: String
    let capabilities: Capabilities
    let deviations: [String: String]
    let flakyDepartures: [String: String]
    /// The adapter's ``PromiseAdapter/concurrentDefaultScheduling``.
    let concurrentDefaultScheduling: String?
    /// The adapter's ``PromiseAdapter/defaultQueue``.
    let defaultQueue: DispatchQueue?
    /// The calls the implementation made into the suite through this adapter's handlers and completions.
    let activity: ImplementationActivity
    /// The object whose lifetime `swift.release` watches for a promise (``PromiseAdapter/lifetimeObject(of:)``).
    let lifetimeObject: @Sendable (ErasedPromise) -> AnyObject?
    let pending: @Sendable () -> Pending
    let fulfilled: @Sendable (Sentinel) -> ErasedPromise
    let rejected: @Sendable (any Error) -> ErasedPromise
    let then: @Sendable (ErasedPromise, DispatchQueue?, FulfilledHandler?, RejectedHandler?) -> ErasedPromise
    let assimilated: @Sendable (any Thenable) -> ErasedPromise
    let all: @Sendable ([ErasedPromise], @escaping @Sendable (Result<[Sentinel], any Error>) -> Void) -> Void
    let race: @Sendable ([ErasedPromise]) -> ErasedPromise
    let any: @Sendable ([ErasedPromise]) -> ErasedPromise
    let cancellablePending: @Sendable () -> Cancellable
    let isCancellation: @Sendable (any Error) -> Bool
    /// The adapter's ``PromiseAdapter/entryPoints``.
    let entryPoints: [ErasedEntryPoint]

    init<A: PromiseAdapter>(_ adapter: A) {
        @Sendable func unwrapPromise(_ promise: ErasedPromise) -> A.Promise { promise.base as! A.Promise }
        name = adapter.name
        typeName = String(describing: A.self)
        capabilities = adapter.capabilities
        deviations = adapter.deviations
        flakyDepartures = adapter.flakyDepartures
        concurrentDefaultScheduling = adapter.concurrentDefaultScheduling
        defaultQueue = adapter.defaultQueue
        let activity = ImplementationActivity()
        self.activity = activity
        lifetimeObject = { adapter.lifetimeObject(of: unwrapPromise($0)) }
        pending = {
            let pending = adapter.pending()
            return (ErasedPromise(base: pending.promise), pending.fulfill, pending.reject)
        }
        fulfilled = { ErasedPromise(base: adapter.fulfilled($0)) }
        rejected = { ErasedPromise(base: adapter.rejected($0)) }
        then = Self.erased(activity) { adapter.then($0, on: $1, onFulfilled: $2, onRejected: $3) }
        entryPoints = adapter.entryPoints.map {
            ErasedEntryPoint(
                name: $0.name, handlers: $0.handlers, results: $0.results, takesQueue: $0.takesQueue,
                then: Self.erased(activity, $0.then))
        }
        assimilated = { ErasedPromise(base: adapter.assimilated($0)) }
        all = { promises, completion in
            adapter.all(promises.map(unwrapPromise)) { result in
                activity.tick()
                completion(result)
            }
        }
        race = { ErasedPromise(base: adapter.race($0.map(unwrapPromise))) }
        any = { ErasedPromise(base: adapter.any($0.map(unwrapPromise))) }
        cancellablePending = {
            let pending = adapter.cancellablePending()
            return (ErasedPromise(base: pending.promise), pending.fulfill, pending.cancel)
        }
        isCancellation = { adapter.isCancellation($0) }
    }

    /// `then`, a `then` of promises of `Promise`, over erased promises and handlers; each handler call is counted in
    /// `activity`.
    static func erased<Promise: Sendable>(
        _ activity: ImplementationActivity, _ then: @escaping EntryPoint<Promise>.Then
    ) -> @Sendable (ErasedPromise, DispatchQueue?, FulfilledHandler?, RejectedHandler?) -> ErasedPromise {
        @Sendable func unwrapResult(_ result: HandlerResult<ErasedPromise>) -> HandlerResult<Promise> {
            switch result {
            case .fulfill(let value): return .fulfill(value)
            case .reject(let error): return .reject(error)
            case .adopt(let promise): return .adopt(promise.base as! Promise)
            case .assimilate(let thenable): return .assimilate(thenable)
            }
        }
        return { promise, queue, onFulfilled, onRejected in
            var fulfilledHandler: (@Sendable (Sentinel) -> HandlerResult<Promise>)?
            if let onFulfilled {
                fulfilledHandler = { value in
                    activity.tick()
                    return unwrapResult(onFulfilled(value))
                }
            }
            var rejectedHandler: (@Sendable (any Error) -> HandlerResult<Promise>)?
            if let onRejected {
                rejectedHandler = { error in
                    activity.tick()
                    return unwrapResult(onRejected(error))
                }
            }
            return ErasedPromise(base: then(promise.base as! Promise, queue, fulfilledHandler, rejectedHandler))
        }
    }
}
