// BFContinuationBody.swift: the user's closure of a `continue…` method, one case per kind, stored as given.
//
// The error kinds recover a faulted task with a value or a task of the task's own type (`S` is `TResult`): they carry
// a `BFSameType` that says so, which passes a result on unchanged. A typed error continuation
// (`{ (error: MyError) in … }`) is stored behind one closure, which returns the error unchanged, as the derived task's
// state, when it is of another type.

/// The user's continuation closure, stored as given (no wrapper closure is allocated for it).
@usableFromInline
enum BFContinuationBody<TResult, S> {
    /// `continueWith`: runs for every outcome, returns a value.
    case always((BFTask<TResult>) throws -> S)
    /// `continueWithTask`: runs for every outcome, returns a task to follow.
    case alwaysTask((BFTask<TResult>) throws -> BFTask<S>)
    /// `continueOnSuccessWith`: runs on success, returns a value.
    case success((TResult) throws -> S)
    /// `continueOnSuccessWithTask`: runs on success, returns a task to follow.
    case successTask((TResult) throws -> BFTask<S>)
    /// `continueOnErrorWith`: runs on error, returns a value; a result passes on unchanged.
    case error(BFErrorBody<S>, BFSameType<TResult, S>)
    /// `continueOnErrorWithTask`: runs on error, returns a task to follow; a result passes on unchanged.
    case errorTask(BFErrorBody<BFTask<S>>, BFSameType<TResult, S>)
}

/// An error continuation that produces an `R`: for every error, or for the errors of one type only.
@usableFromInline
enum BFErrorBody<R> {
    /// `{ error in … }`: takes every error; stored as given.
    case anyError((any Error) throws -> R)
    /// `{ (error: MyError) in … }`: returns the derived task's state, which is the error unchanged when it is of
    /// another type.
    case typed((any Error) -> BFTaskState<R>)

    /// What this continuation makes of `error`, as the derived task's state.
    @inlinable
    func outcome(for error: any Error) -> BFTaskState<R> {
        switch self {
        case .anyError(let continuation):
            return bfOutcome { try continuation(error) }
        case .typed(let continuation):
            return continuation(error)
        }
    }
}

/// Proof that `A` and `B` are one type: it can be made only where they are, so the conversion never fails (and the
/// optimizer removes it wherever the types are known).
@usableFromInline
struct BFSameType<A, B> {
    @inlinable
    init() where A == B {}

    /// `value`, as the type it already is.
    @inlinable
    func callAsFunction(_ value: A) -> B {
        value as! B
    }
}

/// Maps what a closure returned or threw to a task state. Throwing ``BFCancelledError`` cancels.
@inlinable
func bfOutcome<T>(_ body: () throws -> T) -> BFTaskState<T> {
    do {
        return .success(try body())
    } catch is BFCancelledError {
        return .cancelled
    } catch {
        return .error(error)
    }
}
