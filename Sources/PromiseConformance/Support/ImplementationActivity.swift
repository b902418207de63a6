/// A count of the calls one adapter's implementation makes into the suite (a handler, an observer, a completion of
/// `all`): what shows that it is still doing something while a clause waits (``RunStalls``). Each ``ErasedAdapter``
/// has its own, so that other runs in the same process (tests running in parallel) do not count.
final class ImplementationActivity: Sendable {
    private let calls = Locked<UInt64>(0)

    /// Counts one call.
    func tick() {
        calls.withLock { $0 &+= 1 }
    }

    /// How many calls have been counted so far.
    var count: UInt64 { calls.withLock { $0 } }
}
