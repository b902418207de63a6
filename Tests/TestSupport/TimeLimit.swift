import Testing

/// A time limit for a suite or a test: Swift Testing's `.timeLimit` wherever it exists (Linux, and macOS 13 / iOS 16 /
/// tvOS 16 / watchOS 9 and later); no limit on older Apple systems. `.timeLimit` itself needs those versions, so a
/// suite that named it directly would not build at the package's floor.
public func timeLimit(minutes: Int) -> any TestTrait & SuiteTrait {
    guard #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) else { return ConditionTrait.enabled(if: true) }
    return TimeLimitTrait.timeLimit(.minutes(minutes))
}
