/// An error that carries several underlying errors.
///
/// `BFTask.whenAll(_:)` faults with it, listing the error of every input task that
/// faulted, in input order.
public struct BFAggregateError: Error {
    /// The aggregated errors, in the order of the tasks that produced them.
    public let errors: [any Error]

    /// Creates an aggregate of `errors`.
    public init(errors: [any Error]) {
        self.errors = errors
    }
}
