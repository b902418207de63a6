import PromisePlumbing

/// An observer registered with ``BFCancellationToken/register(_:)``; dispose it to unregister.
public final class BFCancellationTokenRegistration: @unchecked Sendable {
    private let lock = Lock()
    private var observer: (() -> Void)?
    private weak var token: BFCancellationToken?

    init(token: BFCancellationToken, observer: @escaping () -> Void) {
        self.token = token
        self.observer = observer
    }

    /// Removes the observer from its token: once `dispose()` returns, the observer will not start.
    /// Calling it more than once does nothing.
    public func dispose() {
        let owner = lock.withLock { () -> BFCancellationToken? in
            observer = nil
            let owner = token
            token = nil
            return owner
        }
        owner?.unregister(self)
    }

    /// Runs the observer once, unless the registration was disposed.
    func notify() {
        let toRun = lock.withLock { () -> (() -> Void)? in
            let toRun = observer
            observer = nil
            token = nil
            return toRun
        }
        toRun?()
    }
}
