import Foundation

/// A value behind a lock (`NSLock`, i.e. a pthread mutex).
///
/// The suite uses this rather than `Synchronization.Mutex` because the thread sanitizer on Linux does not see
/// `Mutex`'s futex-based synchronisation and reports false races; it does see pthread mutexes. It also keeps the suite
/// free of `Synchronization`, whose `Mutex` and `Atomic` need macOS 15 / iOS 18.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
