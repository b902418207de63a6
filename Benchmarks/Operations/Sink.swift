// Keeps a value alive and opaque to the optimizer, for the operations here and for `scaling` (the benchmark plugin's
// targets use the plugin's `blackHole`).

/// Keeps `value` from being optimized away.
@inline(never) public func sink<T>(_ value: T) { withExtendedLifetime(value) {} }
