/// The handlers an ``EntryPoint`` takes.
public struct HandlerKinds: OptionSet, Hashable, Sendable {
    /// The raw bits.
    public let rawValue: Int

    /// Creates a set from its raw bits.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// A handler of the value (A+ `onFulfilled`).
    public static let onFulfilled = HandlerKinds(rawValue: 1 << 0)
    /// A handler of the reason (A+ `onRejected`).
    public static let onRejected = HandlerKinds(rawValue: 1 << 1)
}
