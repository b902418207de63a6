import Dispatch
import Foundation
import PromisePlumbing

// A handler that hops to a queue hands `DispatchQueue.dispatch` a `@Sendable` closure, the block Dispatch runs. The
// user's closures and values are not `Sendable` (PromiseKit's API), so that closure, and the `step` it calls, capture
// `nonisolated(unsafe)` copies of them. This is sound: the closure runs once, on the queue, after the guarantee that
// scheduled it sealed, and nothing else touches the copies meanwhile.

/// A value that will be available later and cannot fail: PromiseKit's `Guarantee`.
///
///     let (guarantee, resolve) = Guarantee<Int>.pending()
///     guarantee.map(on: queue) { $0 * 2 }.done(on: queue) { print($0) }
///     resolve(21)
public final class Guarantee<T>: PMKBox<T>, Thenable {
    /// The Swift task running the operation of `init(priority:operation:)`; nil for any other guarantee. Written
    /// once, by that initializer after the task has started (the task already holds the box, but never reads this
    /// field), and before the initializer returns, so before anyone can call `async()`. It is there for `async()`
    /// alone: when the task awaiting `async()` is cancelled, it cancels this one, passing the cancellation on to the
    /// operation.
    var task: Task<Void, Never>?

    /// The guarantee's state (the guarantee itself: see `PMKBox`).
    @inlinable var box: PMKBox<T> { self }

    @usableFromInline override init(report: PendingReport = .none) {
        super.init(report: report)
    }

    @usableFromInline init(_: PMKUnambiguousInitializer) {
        super.init(report: .none)
    }

    @usableFromInline override init(sealed value: T) {
        super.init(sealed: value)
    }

    /// A guarantee already resolved with `value`.
    @inlinable public static func value(_ value: T) -> Guarantee<T> {
        Guarantee(sealed: value)
    }

    /// A guarantee resolved by calling the function passed to `body`; calls after the first change nothing and are
    /// reported to `conf.logHandler` (see ``PMKDoubleResolution``). The function is `@Sendable` (PromiseKit's is
    /// not), so it can be handed to a DispatchQueue in Swift 6 mode; calls written for PromiseKit's initializer still
    /// compile.
    public init(resolver body: (@escaping @Sendable (T) -> Void) -> Void) {
        super.init(report: .guarantee)
        body(Guarantee.resolveFunction(box))
    }

    /// A pending guarantee and the (`@Sendable`) function that resolves it.
    @inlinable public class func pending() -> (guarantee: Guarantee<T>, resolve: @Sendable (T) -> Void) {
        let guarantee = Guarantee(report: .guarantee)
        return (guarantee, resolveFunction(guarantee.box))
    }

    /// The function that resolves `box`. Inlinable, so that in a client's release build the function `pending()`
    /// returns seals a box of the client's concrete type instead of calling the generic `seal`.
    @inlinable static func resolveFunction(_ box: PMKBox<T>) -> @Sendable (T) -> Void {
        let box = UncheckedSendable(box)  // sealed under its barrier, from any thread, whatever `T`
        return { value in
            if !box.value.seal(value) { PMKDoubleResolution.report(Result<T>.fulfilled(value)) }
        }
    }

    /// Calls `to` with `.fulfilled(value)` once resolved.
    @inlinable public func pipe(to: @escaping (Result<T>) -> Void) {
        box.pipe { to(.fulfilled($0)) }
    }

    /// `.fulfilled(value)` once resolved, `nil` while pending.
    public var result: Result<T>? { sealedValue.map { .fulfilled($0) } }
}

extension Guarantee {
    /// Consumes the value; returns a guarantee of `Void`.
    #if CheckedHandlers
        @_disfavoredOverload  // `on: .main` picks the main-actor form (Thenable+MainActor.swift)
    #endif
    @inlinable @discardableResult
    public func done(
        on: DispatchQueue? = conf.Q.return, flags: DispatchWorkItemFlags? = nil,
        _ body: @escaping PMKGuaranteedHandler<T, Void>
    ) -> Guarantee<Void> {
        let rg = Guarantee<Void>(.pending)
        nonisolated(unsafe) let body: (T) -> Void = body
        pipe { (value: T) in
            nonisolated(unsafe) let value = value
            @Sendable func step() {
                body(value)
                rg.seal(())
            }
            if let on { on.dispatch(flags: flags) { step() } } else { step() }
        }
        return rg
    }

    /// Looks at the value and passes it on.
    #if CheckedHandlers
        @_disfavoredOverload  // `on: .main` picks the main-actor form (Thenable+MainActor.swift)
    #endif
    public func get(
        on: DispatchQueue? = conf.Q.return, flags: DispatchWorkItemFlags? = nil,
        _ body: @escaping PMKGuaranteedHandler<T, Void>
    ) -> Guarantee<T> {
        moduleMap(on: on, flags: flags) {
            body($0)
            return $0
        }
    }

    /// Transforms the value.
    #if CheckedHandlers
        @_disfavoredOverload  // `on: .main` picks the main-actor form (Thenable+MainActor.swift)
    #endif
    @inlinable
    public func map<U>(
        on: DispatchQueue? = conf.Q.map, flags: DispatchWorkItemFlags? = nil,
        _ body: @escaping PMKGuaranteedHandler<T, U>
    ) -> Guarantee<U> {
        moduleMap(on: on, flags: flags, body)
    }

    /// Continues with the guarantee `body` returns.
    #if CheckedHandlers
        @_disfavoredOverload  // `on: .main` picks the main-actor form (Thenable+MainActor.swift)
    #endif
    @inlinable @discardableResult
    public func then<U>(
        on: DispatchQueue? = conf.Q.map, flags: DispatchWorkItemFlags? = nil,
        _ body: @escaping PMKGuaranteedHandler<T, Guarantee<U>>
    ) -> Guarantee<U> {
        moduleThen(on: on, flags: flags, body)
    }

    /// A guarantee that resolves when this does, with `()`.
    public func asVoid() -> Guarantee<Void> {
        map(on: nil) { _ in }
    }

    /// Blocks the calling thread until resolved and returns the value. On the main thread it reports
    /// `.waitOnMainThread` and blocks anyway, as PromiseKit does.
    public func wait() -> T {
        if Thread.isMainThread { conf.logHandler(.waitOnMainThread) }
        if let value = sealedValue { return value }
        let semaphore = DispatchSemaphore(value: 0)
        var outcome: T?
        pipe { (value: T) in
            outcome = value
            semaphore.signal()
        }
        semaphore.wait()
        return outcome!
    }
}

extension Guarantee where T: Sequence {
    /// `Guarantee<[T]>` → `T -> U` → `Guarantee<[U]>`.
    public func mapValues<U>(
        on: DispatchQueue? = conf.Q.map, flags: DispatchWorkItemFlags? = nil,
        _ transform: @escaping PMKGuaranteedHandler<T.Iterator.Element, U>
    ) -> Guarantee<[U]> {
        moduleMap(on: on, flags: flags) { $0.map(transform) }
    }

    /// `Guarantee<[T]>` → `T -> [U]` → `Guarantee<[U]>`.
    public func flatMapValues<U: Sequence>(
        on: DispatchQueue? = conf.Q.map, flags: DispatchWorkItemFlags? = nil,
        _ transform: @escaping PMKGuaranteedHandler<T.Iterator.Element, U>
    ) -> Guarantee<[U.Iterator.Element]> {
        moduleMap(on: on, flags: flags) { $0.flatMap(transform) }
    }

    /// `Guarantee<[T]>` → `T -> U?` → `Guarantee<[U]>`.
    public func compactMapValues<U>(
        on: DispatchQueue? = conf.Q.map, flags: DispatchWorkItemFlags? = nil,
        _ transform: @escaping PMKGuaranteedHandler<T.Iterator.Element, U?>
    ) -> Guarantee<[U]> {
        moduleMap(on: on, flags: flags) { $0.compactMap(transform) }
    }

    /// `Guarantee<[T]>` → `T -> Guarantee<U>` → `Guarantee<[U]>`.
    public func thenMap<U>(
        on: DispatchQueue? = conf.Q.map, flags: DispatchWorkItemFlags? = nil,
        _ transform: @escaping PMKGuaranteedHandler<T.Iterator.Element, Guarantee<U>>
    ) -> Guarantee<[U]> {
        moduleThen(on: on, flags: flags) { when(guarantees: $0.map(transform)) }
    }

    /// `Guarantee<[T]>` → `T -> Guarantee<[U]>` → `Guarantee<[U]>`.
    public func thenFlatMap<U>(
        on: DispatchQueue? = conf.Q.map, flags: DispatchWorkItemFlags? = nil,
        _ transform: @escaping PMKGuaranteedHandler<T.Iterator.Element, Guarantee<U>>
    ) -> Guarantee<[U.Iterator.Element]> where U: Sequence {
        moduleThen(on: on, flags: flags) { when(guarantees: $0.map(transform)) }.moduleMap(on: nil, flags: nil) {
            $0.flatMap { $0 }
        }
    }

    /// `Guarantee<[T]>` → `T -> Thenable<[U]>` → `Guarantee<[U]>`: PromiseKit's signature, taking any thenable (the
    /// overload above serves closures that return a guarantee). A guarantee cannot fail, so a rejection of a
    /// returned promise stops the program, as in PromiseKit.
    public func thenFlatMap<U: Thenable>(
        on: DispatchQueue? = conf.Q.map, flags: DispatchWorkItemFlags? = nil,
        _ transform: @escaping PMKGuaranteedHandler<T.Iterator.Element, U>
    ) -> Guarantee<[U.T.Iterator.Element]> where U.T: Sequence {
        moduleThen(on: on, flags: flags) { elements in
            Guarantee<[U.T.Iterator.Element]> { resolve in
                when(fulfilled: elements.map(transform)).pipe { result in
                    switch result {
                    case .fulfilled(let sequences): resolve(sequences.flatMap { $0 })
                    case .rejected(let error): fatalError("thenFlatMap on a Guarantee: \(error)")
                    }
                }
            }
        }
    }

    /// `Guarantee<[T]>` → `T -> Bool` → `Guarantee<[T]>`.
    public func filterValues(
        on: DispatchQueue? = conf.Q.map, flags: DispatchWorkItemFlags? = nil,
        _ isIncluded: @escaping PMKGuaranteedHandler<T.Iterator.Element, Bool>
    ) -> Guarantee<[T.Iterator.Element]> {
        moduleMap(on: on, flags: flags) { $0.filter(isIncluded) }
    }

    /// The elements sorted by `areInIncreasingOrder`.
    public func sortedValues(
        on: DispatchQueue? = conf.Q.map, flags: DispatchWorkItemFlags? = nil,
        _ areInIncreasingOrder: @escaping PMKOrdering<T.Iterator.Element>
    ) -> Guarantee<[T.Iterator.Element]> {
        moduleMap(on: on, flags: flags) { $0.sorted(by: areInIncreasingOrder) }
    }
}

extension Guarantee where T: Sequence, T.Iterator.Element: Comparable {
    /// The elements in ascending order.
    public func sortedValues(
        on: DispatchQueue? = conf.Q.map, flags: DispatchWorkItemFlags? = nil
    ) -> Guarantee<[T.Iterator.Element]> {
        moduleMap(on: on, flags: flags) { $0.sorted() }
    }
}

extension Guarantee where T == Void {
    /// A guarantee already resolved with `()`.
    public convenience init() {
        self.init(sealed: ())
    }

    /// A guarantee already resolved with `()`.
    public static var value: Guarantee<Void> { .value(()) }
}

// `map` and `then` as this module's own forms call them (the sequence and key-path forms), taking a plain closure:
// see the same pair on `Thenable` (Thenable.swift).
extension Guarantee {
    @inlinable
    func moduleMap<U>(on: DispatchQueue?, flags: DispatchWorkItemFlags?, _ body: @escaping (T) -> U) -> Guarantee<U> {
        let rg = Guarantee<U>(.pending)
        nonisolated(unsafe) let body = body
        pipe { (value: T) in
            let guarantee = UncheckedSendable(rg)  // sealed under its barrier, whatever `U`
            nonisolated(unsafe) let value = value
            if let on { on.dispatch(flags: flags) { guarantee.value.seal(body(value)) } } else { rg.seal(body(value)) }
        }
        return rg
    }

    @inlinable
    func moduleThen<U>(
        on: DispatchQueue?, flags: DispatchWorkItemFlags?, _ body: @escaping (T) -> Guarantee<U>
    ) -> Guarantee<U> {
        let rg = Guarantee<U>(.pending)
        pipe { (value: T) in
            func step() { body(value).pipe { (next: U) in rg.seal(next) } }
            // Crosses to `on` once, whatever `T` and `U`; `rg`'s barrier orders the seal.
            let hop = UncheckedSendable(step)
            if let on { on.dispatch(flags: flags) { hop.value() } } else { step() }
        }
        return rg
    }
}

// The conformance `PMKBox` gives (Box.swift), restated as Swift requires of a subclass.
#if CheckedHandlers
    extension Guarantee: @unchecked Sendable where T: Sendable {}
#else
    extension Guarantee: @unchecked Sendable {}
#endif
