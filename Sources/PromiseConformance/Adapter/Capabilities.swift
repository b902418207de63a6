/// What a promise implementation offers beyond `then`, as declared by its ``PromiseAdapter``.
///
/// A clause that needs a capability the adapter does not declare is reported as
/// ``ClauseStatus/notApplicable(_:)``, never as passed.
public struct Capabilities: OptionSet, Hashable, Sendable, CustomStringConvertible {
    /// The raw bits.
    public let rawValue: Int

    /// Creates a capability set from its raw bits.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Handlers may return a foreign ``Thenable`` (``HandlerResult/assimilate(_:)``), which the derived promise
    /// assimilates (A+ 2.3.3); also enables ``PromiseAdapter/assimilated(_:)``.
    public static let assimilation = Capabilities(rawValue: 1 << 0)
    /// ``PromiseAdapter/all(_:completion:)``: fulfils with every value, in order, or rejects with the first error.
    public static let all = Capabilities(rawValue: 1 << 1)
    /// ``PromiseAdapter/race(_:)``: settles like the first of its inputs to settle.
    public static let race = Capabilities(rawValue: 1 << 2)
    /// ``PromiseAdapter/any(_:)``: fulfils like the first of its inputs to fulfil, rejects once all have rejected.
    public static let any = Capabilities(rawValue: 1 << 3)
    /// ``PromiseAdapter/cancellablePending()`` and ``PromiseAdapter/isCancellation(_:)``.
    public static let cancellation = Capabilities(rawValue: 1 << 4)

    /// Every capability the suite knows.
    public static let everything: Capabilities = [.assimilation, .all, .race, .any, .cancellation]

    /// Each capability the suite knows, with its name, in the order of ``everything``.
    static let names: [(Capabilities, String)] = [
        (.assimilation, "assimilation"), (.all, "all"), (.race, "race"), (.any, "any"), (.cancellation, "cancellation"),
    ]

    /// The names of the capabilities in this set, e.g. `[assimilation, all]`.
    public var description: String {
        "[" + Self.names.filter { contains($0.0) }.map(\.1).joined(separator: ", ") + "]"
    }
}
