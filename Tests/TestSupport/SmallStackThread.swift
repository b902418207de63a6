import Foundation

/// Runs work on a thread of its own with a stack of a size the test chooses, and waits for it.
///
/// The long-chain tests run there so that a recursion per link shows as a crash after a few hundred links, whatever
/// stack the test runner's own threads have: 512 KiB (``defaultSize``) is the stack of a secondary thread on Apple
/// platforms, the smallest a promise's settling thread commonly has.
public enum SmallStackThread {
    /// 512 KiB.
    public static let defaultSize = 512 * 1024

    /// Runs `body` on a new thread whose stack is `stackSize` bytes, and returns what it returned once it has.
    ///
    /// The caller waits without holding a thread: the matrices that run hundreds of chains here would otherwise keep
    /// a thread of Swift concurrency's pool (two on a 2-core machine) blocked for as long as they run.
    public static func run<T: Sendable>(stackSize: Int = defaultSize, _ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: body()) }
            thread.stackSize = stackSize
            thread.name = "TestSupport.SmallStackThread"
            thread.start()
        }
    }
}
