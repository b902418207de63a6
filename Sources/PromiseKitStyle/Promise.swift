import Dispatch
import Foundation

/// Distinguishes the internal pending initializer from the public ones.
@usableFromInline
enum PMKUnambiguousInitializer {
    case pending
}

/// A value that will be available later, or an error: PromiseKit's `Promise`.
///
///     Promise { seal in
///         fetch(url) { data, error in seal.resolve(data, error) }
///     }.map { data in
///         try decode(data)
///     }.done { model in
///         show(model)
///     }.catch { error in
///         report(error)
///     }
///
/// Handlers run on `conf.Q` (the main queue by default) unless a call passes `on:`; see <doc:HowTheHandlerQueueWorks>.
public final class Promise<T>: PMKBox<Result<T>>, Thenable, CatchMixin {
    /// The Swift task running the operation of `init(priority:operation:)`; nil for any other promise. Written
    /// once, by that initializer after the task has started (the task already holds the box, but never reads this
    /// field), and before the initializer returns, so before anyone can call `async()`. It is there for `async()`
    /// alone: when the task awaiting `async()` is cancelled, it cancels this one, passing the cancellation on to the
    /// operation.
    var task: Task<Void, Never>?

    /// The promise's state (the promise itself: see `PMKBox`).
    @inlinable var box: PMKBox<Result<T>> { self }

    @usableFromInline override init(report: PendingReport = .none) {
        super.init(report: report)
    }

    @usableFromInline init(_: PMKUnambiguousInitializer) {
        super.init(report: .none)
    }

    @usableFromInline override init(sealed value: Result<T>) {
        super.init(sealed: value)
    }

    /// A promise already fulfilled with `value`.
    @inlinable public class func value(_ value: T) -> Promise<T> {
        Promise(sealed: .fulfilled(value))
    }

    /// A promise already rejected with `error`.
    public init(error: Error) {
        super.init(sealed: .rejected(error))
    }

    /// A promise that resolves as `bridge` does.
    public convenience init<U: Thenable>(_ bridge: U) where U.T == T {
        self.init(.pending)
        let box = self.box
        bridge.pipe { box.seal($0) }
    }

    /// A promise resolved through the ``Resolver`` passed to `body`; if `body` throws, the promise rejects.
    public init(resolver body: (Resolver<T>) throws -> Void) {
        super.init(report: .promise)
        let resolver = Resolver(box)
        do {
            try body(resolver)
        } catch {
            resolver.reject(error)
        }
    }

    /// A pending promise and the resolver that settles it.
    @inlinable public class func pending() -> (promise: Promise<T>, resolver: Resolver<T>) {
        let promise = Promise(report: .promise)
        return (promise, Resolver(promise.box))
    }

    /// Calls `to` with the result once resolved: inline now if already resolved, otherwise on the resolving thread.
    @inlinable public func pipe(to: @escaping (Result<T>) -> Void) {
        box.pipe(to)
    }

    /// The result, or `nil` while pending.
    @inlinable public var result: Result<T>? { sealedValue }
}

extension Promise {
    /// Blocks the calling thread until resolved, then returns the value or throws the error.
    ///
    /// On the main thread it reports `.waitOnMainThread` to `conf.logHandler` and blocks anyway, as PromiseKit does:
    /// command-line tools that set `conf.Q` to background queues rely on it. With the default `conf.Q` a chain that
    /// needs the main queue then never finishes, so prefer `async()` or `hang(_:)` there.
    public func wait() throws -> T {
        if Thread.isMainThread { conf.logHandler(.waitOnMainThread) }
        if let result { return try result.get() }
        let semaphore = DispatchSemaphore(value: 0)
        var outcome: Result<T>?
        pipe {
            outcome = $0
            semaphore.signal()
        }
        semaphore.wait()
        return try outcome!.get()
    }
}

extension Promise where T == Void {
    /// A promise already fulfilled with `()`.
    public convenience init() {
        self.init(sealed: .fulfilled(()))
    }

    /// A promise already fulfilled with `()`: `return .value` in a function returning `Promise<Void>`.
    public static var value: Promise<Void> { .value(()) }
}

// The conformance `PMKBox` gives (Box.swift), restated as Swift requires of a subclass.
#if CheckedHandlers
    extension Promise: @unchecked Sendable where T: Sendable {}
#else
    extension Promise: @unchecked Sendable {}
#endif
