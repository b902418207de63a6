/// The error that stands for cancellation.
///
/// Throw it from a continuation to cancel the derived task instead of faulting it.
/// ``BFTask/async()`` throws it when the task was cancelled.
public struct BFCancelledError: Error, Equatable {
    /// Creates a cancellation error.
    public init() {}
}
