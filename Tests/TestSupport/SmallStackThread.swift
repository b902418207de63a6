import Foundation

/// Runs work on a thread of its own with a stack of a size the test chooses, and waits for it.
///
/// The long-chain tests run there so that a recursion per link shows as a crash after a few thousand links, whatever
/// stack the test runner's own threads have: 512 KiB (``defaultSize``) is the stack of a secondary thread on Apple
/// platforms, the smallest a promise's settling thread commonly has.
public enum SmallStackThread {
    /// 512 KiB.
    public static let defaultSize = 512 * 1024

    /// Runs `body` on a new thread whose stack is `stackSize` bytes, and returns what it returned once it has.
    public static func run<T: Sendable>(stackSize: Int = defaultSize, _ body: @escaping @Sendable () -> T) -> T {
        let result = ResultSlot<T>()
        let thread = Thread {
            result.store(body())
        }
        thread.stackSize = stackSize
        thread.name = "TestSupport.SmallStackThread"
        thread.start()
        return result.wait()
    }
}

/// One value handed from the thread to the waiting caller.
private final class ResultSlot<T: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var value: T?

    func store(_ newValue: T) {
        condition.lock()
        value = newValue
        condition.broadcast()
        condition.unlock()
    }

    func wait() -> T {
        condition.lock()
        defer { condition.unlock() }
        while value == nil { condition.wait() }
        return value!
    }
}
