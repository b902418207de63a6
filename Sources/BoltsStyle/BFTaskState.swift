/// The state of a ``BFTask``: pending, or one of the three completed outcomes.
///
/// A callback receives the final state as an argument; a task keeps it in a `BFStateStorage`.
@usableFromInline
enum BFTaskState<TResult> {
    case pending
    case success(TResult)
    case error(any Error)
    case cancelled
}
