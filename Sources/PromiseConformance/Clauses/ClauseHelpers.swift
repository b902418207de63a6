// What several clause files share: handlers that do something and pass the outcome on, and the small thread-safe
// probes that handlers record into.

/// A fulfilment handler that runs `action` and passes the value on.
func fulfilling(_ action: @escaping @Sendable (Sentinel) -> Void) -> ErasedAdapter.FulfilledHandler {
    { value in
        action(value)
        return .fulfill(value)
    }
}

/// A rejection handler that runs `action` and passes the reason on.
func rejecting(_ action: @escaping @Sendable (any Error) -> Void) -> ErasedAdapter.RejectedHandler {
    { error in
        action(error)
        return .reject(error)
    }
}

/// A handler pair that records what it sees under `label` in `log`, and passes it on.
func logging(_ log: Recorder<String>, _ label: String) -> (
    ErasedAdapter.FulfilledHandler, ErasedAdapter.RejectedHandler
) {
    (
        { value in
            log.record(label)
            return .fulfill(value)
        },
        { error in
            log.record(label)
            return .reject(error)
        }
    )
}

/// A flag set from any thread, and read later.
final class Flag: Sendable {
    private let value = Locked(false)

    func mark() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
}

/// Calls a scripted thenable keeps for later, made by the checking thread once the promise has settled: a late call
/// then comes after the promise settled on every machine, where a timer could fire first on a loaded one.
final class LateCalls: Sendable {
    private let calls = Locked<[@Sendable () -> Void]>([])

    /// Keeps `call` for later.
    func add(_ call: @escaping @Sendable () -> Void) { calls.withLock { $0.append(call) } }

    /// Makes the calls kept so far, in order, on this thread, and forgets them.
    func make() {
        let kept = calls.withLock { calls in
            defer { calls = [] }
            return calls
        }
        for call in kept { call() }
    }
}

/// An object whose lifetime the suite watches through a weak reference.
final class LifetimeToken: Sendable {}
