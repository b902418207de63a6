/// The ``HandlerResult`` cases a handler passed to an ``EntryPoint`` can express.
public struct ResultKinds: OptionSet, Hashable, Sendable {
    /// The raw bits.
    public let rawValue: Int

    /// Creates a set from its raw bits.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// ``HandlerResult/fulfill(_:)``: the handler returns a value.
    public static let value = ResultKinds(rawValue: 1 << 0)
    /// ``HandlerResult/reject(_:)``: the handler throws (or returns an error, where the form says so).
    public static let `throw` = ResultKinds(rawValue: 1 << 1)
    /// ``HandlerResult/adopt(_:)``: the handler returns a promise of the same library.
    public static let adopt = ResultKinds(rawValue: 1 << 2)
    /// ``HandlerResult/assimilate(_:)``: the handler returns a foreign thenable (needs
    /// ``Capabilities/assimilation``).
    public static let assimilate = ResultKinds(rawValue: 1 << 3)
    /// The form only observes: whatever its handler returns, the derived promise settles as the promise it was
    /// registered on (`catch`, `tap`, `get`, `done`). The suite routes through it only handlers that pass on the
    /// outcome they got unchanged.
    public static let same = ResultKinds(rawValue: 1 << 4)
}
