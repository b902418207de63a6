extension BFTask: CustomStringConvertible, CustomDebugStringConvertible {
    /// A textual representation of the task and its state, in Bolts-Swift's format with this package's type name:
    /// `BFTask: pending`, `BFTask: success(42)`, `BFTask: error(…)` or `BFTask: cancelled` (the outcome printed as
    /// Swift prints an enum case with its payload).
    public var description: String {
        switch currentState {
        case .pending:
            return "BFTask: pending"
        case .success(let value):
            return "BFTask: success(\(String(reflecting: value)))"
        case .error(let error):
            return "BFTask: error(\(String(reflecting: error)))"
        case .cancelled:
            return "BFTask: cancelled"
        }
    }

    /// The same as ``description``, as in Bolts-Swift.
    public var debugDescription: String {
        description
    }
}
