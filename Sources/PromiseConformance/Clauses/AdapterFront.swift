import Dispatch

/// The adapter as the clauses call it: promises made, settled, chained with `then` and observed, where each `then`
/// goes through an entry point instead while ``routing(through:_:_:)`` runs and its handlers fit.
final class AdapterFront: @unchecked Sendable {
    /// The adapter the clause runs over.
    let adapter: ErasedAdapter
    /// The entry point the `then` calls go through when they fit, while ``routing(through:_:_:)`` runs it: set and
    /// cleared by the clause's thread, around a run of the clause's body, which is why the front is
    /// `@unchecked Sendable`.
    private var route: (entry: ErasedEntryPoint, calls: RoutedCalls)?

    init(_ adapter: ErasedAdapter) {
        self.adapter = adapter
    }

    /// A pending promise and the functions that settle it.
    func pending() -> ErasedAdapter.Pending { adapter.pending() }

    /// A promise already settled as `settlement` says.
    func settled(_ settlement: Settlement) -> ErasedPromise {
        switch settlement {
        case .fulfil(let value): adapter.fulfilled(value)
        case .reject(let error): adapter.rejected(error)
        }
    }

    /// Settles `pending` as `settlement` says.
    func settle(_ pending: ErasedAdapter.Pending, _ settlement: Settlement) {
        switch settlement {
        case .fulfil(let value): pending.fulfill(value)
        case .reject(let error): pending.reject(error)
        }
    }

    /// The adapter's `then`, or, while ``routing(through:_:_:)`` runs and the handlers given fit, the entry point's.
    func then(
        _ promise: ErasedPromise, on queue: DispatchQueue? = nil,
        onFulfilled: ErasedAdapter.FulfilledHandler? = nil, onRejected: ErasedAdapter.RejectedHandler? = nil
    ) -> ErasedPromise {
        if let (entry, calls) = route, queue == nil || entry.takesQueue {
            var given: HandlerKinds = []
            if onFulfilled != nil { given.insert(.onFulfilled) }
            if onRejected != nil { given.insert(.onRejected) }
            if given.isSubset(of: calls.handlers),
                entry.fits(given, calls.results, same: calls.same, queue: entry.takesQueue)
            {
                return entry.then(promise, entry.takesQueue ? queue ?? .global() : nil, onFulfilled, onRejected)
            }
        }
        return adapter.then(promise, queue, onFulfilled, onRejected)
    }

    /// Runs `body` with every `then` call whose handlers `calls` describes going through `entry` where it fits.
    func routing(through entry: ErasedEntryPoint, _ calls: RoutedCalls, _ body: () throws -> Void) rethrows {
        route = (entry, calls)
        defer { route = nil }
        try body()
    }

    /// Registers handlers that record what they see and pass it on unchanged.
    @discardableResult
    func observe(_ promise: ErasedPromise, on queue: DispatchQueue? = nil) -> Recorder<Outcome> {
        let recorder = Recorder<Outcome>()
        _ = then(
            promise, on: queue,
            onFulfilled: { value in
                recorder.record(.fulfilled(value))
                return .fulfill(value)
            },
            onRejected: { error in
                recorder.record(.rejected(error))
                return .reject(error)
            })
        return recorder
    }
}
