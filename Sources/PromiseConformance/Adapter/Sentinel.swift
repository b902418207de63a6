/// A value the suite fulfils promises with.
///
/// Sentinels carry no meaning beyond their identity: the suite checks that the value a handler sees is exactly the
/// one a promise was fulfilled with, as the JavaScript suite does with its `sentinel` objects.
public struct Sentinel: Hashable, Sendable, CustomStringConvertible {
    /// The identity of this sentinel.
    public let id: Int

    /// Creates the sentinel numbered `id`.
    public init(_ id: Int) {
        self.id = id
    }

    /// `Sentinel(id)`.
    public var description: String { "Sentinel(\(id))" }
}

/// An error the suite rejects promises with.
///
/// The suite checks that the reason a handler sees is exactly the one a promise was rejected with.
public struct SentinelError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The identity of this error.
    public let id: Int

    /// Creates the error numbered `id`.
    public init(_ id: Int) {
        self.id = id
    }

    /// `SentinelError(id)`.
    public var description: String { "SentinelError(\(id))" }
}
