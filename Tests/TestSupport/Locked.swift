import Foundation

/// A value behind a lock (`NSLock`, i.e. a pthread mutex).
///
/// The tests use this rather than `Synchronization.Mutex` because the thread sanitizer on Linux does not see
/// `Mutex`'s futex-based synchronisation and reports false races; it does see pthread mutexes.
public final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    /// Creates the lock around `value`.
    public init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
