/// A weak reference that another thread polls: the clauses' and the generated programs' watch on an object's lifetime.
final class WeakBox: @unchecked Sendable {
    private let lock = Locked<Void>(())
    private weak var object: AnyObject?

    init(_ object: AnyObject?) {
        self.object = object
    }

    var isAlive: Bool { lock.withLock { _ in object != nil } }
}
