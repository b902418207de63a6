/// What a top-level case throws when it showed a departure the adapter declares, and nothing else: the case ends as
/// ``CaseResult/Outcome/deviated(_:)``.
struct DeclaredDeparture: Error {
    /// The departure seen, as the case's result says it.
    let message: String
}
