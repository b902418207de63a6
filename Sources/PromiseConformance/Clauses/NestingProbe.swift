import Foundation

/// The identity of a thread, to tell whether a handler runs nested inside a call made on that thread.
struct ThreadIdentity: @unchecked Sendable {
    private let thread: pthread_t

    static var current: ThreadIdentity { ThreadIdentity(thread: pthread_self()) }

    var isCurrent: Bool { pthread_equal(thread, pthread_self()) != 0 }
}

/// Records whether handlers run nested inside a call (`then`, `fulfill`, `reject`) made on the clause thread.
final class NestingProbe: Sendable {
    private let caller = ThreadIdentity.current
    private let inside = Locked(false)
    let nested = Recorder<Bool>()

    /// Runs `call` marked as "inside".
    func during<T>(_ call: () -> T) -> T {
        inside.withLock { $0 = true }
        defer { inside.withLock { $0 = false } }
        return call()
    }

    /// Called by a handler: records whether it runs inside the marked call, on the caller's stack.
    func handlerRuns() {
        nested.record(caller.isCurrent && inside.withLock { $0 })
    }
}
