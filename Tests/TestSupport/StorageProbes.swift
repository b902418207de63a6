// Values for the tests of BoltsStyle's and PromiseKitStyle's raw-word result storage (`RawStorage` in
// PromisePlumbing): one that reports its release, one too large to be kept inline, one aligned too strictly.

/// Reports its deinit, to check that a task or box releases the value it holds exactly once.
public final class Tracked: @unchecked Sendable {
    /// Tells instances apart in expectations.
    public let id: Int
    private let onDeinit: () -> Void

    /// Creates an instance that calls `onDeinit` when it is freed.
    public init(id: Int, onDeinit: @escaping () -> Void) {
        self.id = id
        self.onDeinit = onDeinit
    }

    deinit { onDeinit() }
}

/// Larger than the four words a task or box keeps inline: stored behind a pointer.
public struct Wide: Equatable, Sendable {
    /// Filler that makes the value wider than four words.
    public var a = 1, b = 2, c = 3, d = 4, e = 5, f = 6
    /// A non-trivial field, so that copies and releases show.
    public var name = "wide"

    /// Creates the value with its default fields.
    public init() {}
}

/// Aligned more strictly than a word: also stored behind a pointer.
public struct Aligned: Equatable, Sendable {
    /// The over-aligned field.
    public var vector = SIMD4<Double>(1, 2, 3, 4)

    /// Creates the value with its default field.
    public init() {}
}
