import Dispatch
import PromisePlumbing

// CONCURRENCY POLICY. As in PromiseKit, user closures are plain `@escaping` (not `@Sendable`) and values are
// unconstrained `T`, so closures and values written for PromiseKit need not be `Sendable` in Swift 6 mode. The
// promise types are `@unchecked Sendable`: the barrier makes their state thread-safe (Box.swift). Under the trait
// CheckedHandlers the closures are `@Sendable` (PMKHandler.swift) and the promise types are `Sendable` only where their
// value is. Closures cross threads only inside this module: as the `nonisolated(unsafe)` captures of the block a
// handler hands the queue (below), in PromisePlumbing's `UncheckedSendable`, or inside a handler object that the block
// captures, a `Hop` (Hop.swift) or the finalizer of `catch`.
//
// `then`, `map`, `done` and `get` hop through handler objects (`Follow`, `Transform`, `Consume`, in Core/, each
// piped as its `receive` method), so that hopping allocates no closure context. The other methods hand
// `DispatchQueue.dispatch` a `@Sendable` closure, the block Dispatch runs. The user's closures and values are not
// `Sendable` (PromiseKit's API), so that closure, and the `step` it calls, capture `nonisolated(unsafe)` copies of
// them. This is sound: the closure runs once, on the queue, after the promise that scheduled it sealed, and nothing
// else touches the copies meanwhile. A handler seals with `rp.seal`, not PromiseKit's `rp.box.seal`: the `box` getter
// returns a new reference, a retain and a release around every seal.

/// An asynchronous value that can be chained: ``Promise`` and ``Guarantee`` conform, and so can your own types.
///
/// Every chain method takes `on:` (the queue the closure runs on: `conf.Q.map` or `conf.Q.return` by default, `nil`
/// to run inline on the thread that resolves) and `flags:` (work-item flags for that hop).
public protocol Thenable: AnyObject {
    /// The type of the wrapped value.
    associatedtype T

    /// Calls `to` once, with the result, as soon as this thenable is resolved (inline if it already is).
    func pipe(to: @escaping (Result<T>) -> Void)

    /// The result, or `nil` while pending.
    var result: Result<T>? { get }
}

extension Thenable {
    /// Runs `body` with the value when this fulfils; the returned promise follows the thenable `body` returns.
    ///
    ///     firstly { fetchUser() }.then { user in fetchAvatar(user) }.done { avatar in ... }
    ///
    /// If `body` returns the promise `then` itself returned, that promise rejects with `PMKError.returnedSelf`.
    #if CheckedHandlers
        @_disfavoredOverload  // `on: .main` picks the main-actor form (Thenable+MainActor.swift)
    #endif
    @inlinable
    public func then<U: Thenable>(
        on: DispatchQueue? = conf.Q.map, flags: DispatchWorkItemFlags? = nil, _ body: @escaping PMKHandler<T, U>
    ) -> Promise<U.T> {
        moduleThen(on: on, flags: flags, body)
    }

    /// Transforms the value when this fulfils; the returned promise rejects if `transform` throws.
    #if CheckedHandlers
        @_disfavoredOverload  // `on: .main` picks the main-actor form (Thenable+MainActor.swift)
    #endif
    @inlinable
    public func map<U>(
        on: DispatchQueue? = conf.Q.map, flags: DispatchWorkItemFlags? = nil, _ transform: @escaping PMKHandler<T, U>
    ) -> Promise<U> {
        moduleMap(on: on, flags: flags, transform)
    }

    /// Like `map`, but a `nil` result rejects with `PMKError.compactMap`.
    @inlinable
    public func compactMap<U>(
        on: DispatchQueue? = conf.Q.map, flags: DispatchWorkItemFlags? = nil, _ transform: @escaping PMKHandler<T, U?>
    ) -> Promise<U> {
        moduleMap(on: on, flags: flags) { value in
            guard let mapped = try transform(value) else { throw PMKError.compactMap(value, U.self) }
            return mapped
        }
    }

    /// Consumes the value when this fulfils; the returned promise fulfils with `Void` (or rejects if `body` throws).
    #if CheckedHandlers
        @_disfavoredOverload  // `on: .main` picks the main-actor form (Thenable+MainActor.swift)
    #endif
    @inlinable
    public func done(
        on: DispatchQueue? = conf.Q.return, flags: DispatchWorkItemFlags? = nil, _ body: @escaping PMKHandler<T, Void>
    ) -> Promise<Void> {
        let handler = Consume(on: on, flags: flags, body)
        pipe(to: handler.receive)
        return handler.promise
    }

    /// Looks at the value when this fulfils and passes it on unchanged (or rejects if `body` throws).
    #if CheckedHandlers
        @_disfavoredOverload  // `on: .main` picks the main-actor form (Thenable+MainActor.swift)
    #endif
    @inlinable
    public func get(
        on: DispatchQueue? = conf.Q.return, flags: DispatchWorkItemFlags? = nil, _ body: @escaping PMKHandler<T, Void>
    ) -> Promise<T> {
        map(on: on, flags: flags) {
            try body($0)
            return $0
        }
    }

    /// Looks at the result, fulfilled or rejected, and passes it on unchanged.
    @inlinable
    public func tap(
        on: DispatchQueue? = conf.Q.map, flags: DispatchWorkItemFlags? = nil,
        _ body: @escaping PMKGuaranteedHandler<Result<T>, Void>
    ) -> Promise<T> {
        let rp = Promise<T>(.pending)
        nonisolated(unsafe) let body: (Result<T>) -> Void = body
        pipe {
            let promise = UncheckedSendable(rp)  // sealed under its barrier, whatever `T`
            nonisolated(unsafe) let result = $0
            on.dispatch(flags: flags) {
                body(result)
                promise.value.seal(result)
            }
        }
        return rp
    }

    /// A promise that resolves like this one but with its value discarded.
    @inlinable
    public func asVoid() -> Promise<Void> {
        map(on: nil) { _ in }
    }
}

extension Thenable {
    /// The error this rejected with, or `nil` if pending or fulfilled.
    public var error: Error? {
        guard case .rejected(let error)? = result else { return nil }
        return error
    }

    /// True until resolved.
    public var isPending: Bool { result == nil }

    /// True once fulfilled or rejected.
    public var isResolved: Bool { !isPending }

    /// True if fulfilled.
    public var isFulfilled: Bool {
        guard case .fulfilled? = result else { return false }
        return true
    }

    /// True if rejected.
    public var isRejected: Bool {
        guard case .rejected? = result else { return false }
        return true
    }

    /// The value this fulfilled with, or `nil` if pending or rejected.
    public var value: T? {
        guard case .fulfilled(let value)? = result else { return nil }
        return value
    }
}

// `then` and `map` as this module's own forms call them (the sequence and key-path forms): the same handler objects,
// taking a plain closure. Under CheckedHandlers the public forms take `@Sendable` closures; a module form's closure
// captures only the caller's closure (checked where the caller wrote it) or a key path, so it need not be `@Sendable`,
// and in a generic context it needs no `Sendable` metatypes.
extension Thenable {
    @inlinable
    func moduleThen<U: Thenable>(
        on: DispatchQueue?, flags: DispatchWorkItemFlags?, _ body: @escaping (T) throws -> U
    ) -> Promise<U.T> {
        let handler = Follow(on: on, flags: flags, body)
        pipe(to: handler.receive)
        return handler.promise
    }

    @inlinable
    func moduleMap<U>(
        on: DispatchQueue?, flags: DispatchWorkItemFlags?, _ transform: @escaping (T) throws -> U
    ) -> Promise<U> {
        let handler = Transform(on: on, flags: flags, transform)
        pipe(to: handler.receive)
        return handler.promise
    }
}
