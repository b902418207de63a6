import Dispatch
import Foundation
import PromisePlumbing

/// The consumer side of cancellation: tells whether cancellation was requested and notifies
/// registered observers when it is.
///
/// Get one from a ``BFCancellationTokenSource`` and pass it to continuations,
/// ``BFTask/withDelay(_:cancellationToken:)`` or your own work.
public final class BFCancellationToken: @unchecked Sendable {
    private let lock = Lock()
    private var requested = false
    private var disposed = false
    private var registrations: [BFCancellationTokenRegistration] = []
    /// Identifies the latest `cancel(after:)` request; scheduled cancels of older ones do nothing.
    private var schedule = 0

    init() {}

    /// Whether cancellation has been requested.
    public var isCancellationRequested: Bool {
        lock.withLock { requested }
    }

    /// Registers `observer` to run once when cancellation is requested.
    ///
    /// The observer runs on the thread that requests cancellation. If cancellation was already
    /// requested, it runs right away, before `register` returns. After the source was disposed it
    /// never runs.
    ///
    /// - Parameter observer: The closure to run on cancellation.
    /// - Returns: A registration whose ``BFCancellationTokenRegistration/dispose()`` removes the observer.
    @discardableResult
    public func register(_ observer: @escaping BFBlock) -> BFCancellationTokenRegistration {
        let registration = BFCancellationTokenRegistration(token: self, observer: observer)
        enum Outcome { case added, runNow, inert }
        let outcome = lock.withLock { () -> Outcome in
            if disposed { return .inert }
            if requested { return .runNow }
            registrations.append(registration)
            return .added
        }
        switch outcome {
        case .added: break
        case .runNow: registration.notify()
        case .inert: registration.dispose()
        }
        return registration
    }

    func unregister(_ registration: BFCancellationTokenRegistration) {
        lock.withLock { registrations.removeAll { $0 === registration } }
    }

    /// Requests cancellation and notifies the observers; `onlySchedule` limits it to that `cancel(after:)`.
    func cancel(onlySchedule: Int? = nil) {
        let toNotify = lock.withLock { () -> [BFCancellationTokenRegistration] in
            if requested || disposed { return [] }
            if let onlySchedule, onlySchedule != schedule { return [] }
            requested = true
            let pending = registrations
            registrations = []
            return pending
        }
        for registration in toNotify { registration.notify() }
    }

    func cancel(after delay: TimeInterval) {
        if delay == 0 {
            cancel()
            return
        }
        let current = lock.withLock { () -> Int? in
            if requested || disposed { return nil }
            schedule += 1
            return delay < 0 ? nil : schedule
        }
        guard let current else { return }
        DispatchQueue.global(qos: .default).asyncAfter(deadline: .now() + delay) { [weak self] in
            self?.cancel(onlySchedule: current)
        }
    }

    func dispose() {
        let dropped = lock.withLock { () -> [BFCancellationTokenRegistration] in
            if disposed { return [] }
            disposed = true
            schedule += 1
            let all = registrations
            registrations = []
            return all
        }
        for registration in dropped { registration.dispose() }
    }
}
