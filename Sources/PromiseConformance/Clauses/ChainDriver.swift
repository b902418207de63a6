import Dispatch

/// The settlements a deep chain's handlers leave to be made once they have returned (the pending promises of
/// ``ChainLink/pendingPromise``), made in turn by the thread that settled the chain's root.
///
/// A handler returns a pending promise, and only then is it settled: by the settling thread, which takes each
/// settlement as it comes, in the same run as the root's. So every promise a link adopts really is pending when
/// returned, whatever thread the handler ran on.
final class ChainDriver: Sendable {
    private let settlements = Locked<(waiting: [@Sendable () -> Void], finished: Bool)>(([], false))
    private let signal = DispatchSemaphore(value: 0)

    /// Keeps `settlement` for the settling thread.
    func add(_ settlement: @escaping @Sendable () -> Void) {
        settlements.withLock { $0.waiting.append(settlement) }
        signal.signal()
    }

    /// The chain ended: ``drive(until:)`` returns.
    func finish() {
        settlements.withLock { $0.finished = true }
        signal.signal()
    }

    /// Makes each settlement as it comes, on this thread, until ``finish()`` or `deadline()`, read again after each
    /// wait (a case's deadline moves while its chain makes progress).
    func drive(until deadline: () -> DispatchTime) {
        while true {
            let (next, finished) = settlements.withLock { state in
                defer { state.waiting = [] }
                return (state.waiting, state.finished)
            }
            for settlement in next { settlement() }
            if finished && next.isEmpty { return }
            if next.isEmpty, signal.wait(timeout: deadline()) == .timedOut, DispatchTime.now() >= deadline() { return }
        }
    }
}
