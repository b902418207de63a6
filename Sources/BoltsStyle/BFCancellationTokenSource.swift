import Foundation

/// The producer side of cancellation: owns a ``BFCancellationToken`` and requests cancellation on it.
public final class BFCancellationTokenSource: Sendable {
    /// The token this source cancels.
    public let token: BFCancellationToken

    /// Creates a source with a new token.
    public init() {
        token = BFCancellationToken()
    }

    /// Whether cancellation has been requested.
    public var isCancellationRequested: Bool {
        token.isCancellationRequested
    }

    /// Requests cancellation, unless already requested, and runs the token's observers.
    public func cancel() {
        token.cancel()
    }

    /// Requests cancellation after `delay` seconds, replacing any earlier scheduled request.
    ///
    /// A delay of zero cancels right away; a negative delay only removes a scheduled request
    /// (Bolts' `cancelAfterDelay:` with `0` and `-1`, in seconds instead of milliseconds).
    ///
    /// - Parameter delay: The delay in seconds.
    public func cancel(after delay: TimeInterval) {
        token.cancel(after: delay)
    }

    /// Releases the token's resources: drops every registration and any scheduled cancellation.
    ///
    /// Afterwards the source is inert: cancelling does nothing and new observers never run.
    public func dispose() {
        token.dispose()
    }
}
