/// Why a clause failed; its message becomes ``ClauseStatus/failed(_:)``. ``CaseRunner/failure(_:stalled:)`` makes
/// one named after the running case.
struct ClauseFailure: Error {
    /// What went wrong, after the running case's name when a case was running.
    let message: String
    /// Whether a wait for something that must happen ran out of time (``RunStalls``).
    var stalled = false
}
