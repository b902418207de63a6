import BoltsStyle
import PromiseKitStyle

/// With the bridge imported, a ``BoltsStyle/BFCancelledError`` is a PromiseKitStyle `CancellableError`, so
/// `error.isCancelled` is true for it and PromiseKitStyle's `catch` skips it like any other cancellation (for example
/// when `Promise { try await task.async() }` awaits a cancelled `BFTask`).
extension BFCancelledError: CancellableError {
    /// Always `true`: this error only ever means cancellation.
    public var isCancelled: Bool { true }
}
