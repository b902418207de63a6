import Dispatch
import PromisePlumbing

// A handler that hops to a queue hands `DispatchQueue.dispatch` a `@Sendable` closure, the block Dispatch runs. The
// user's closures and values are not `Sendable` (PromiseKit's API), so that closure captures `nonisolated(unsafe)`
// copies of them. This is sound: the closure runs once, on the queue, after the promise that scheduled it sealed, and
// nothing else touches the copies meanwhile. (`recover` with a thenable hops through `Follow`, and `catch` through its
// finalizer: objects that the block captures alone, so that the hop allocates no context, Hop.swift.)

/// Adds `catch`, `recover`, `ensure`, `ensureThen` and `cauterize` to a ``Thenable`` that can reject
/// (``Promise``; a ``Guarantee`` cannot reject, so it does not conform).
public protocol CatchMixin: Thenable {}

extension CatchMixin {
    /// Handles the error if this rejects; ends the chain with a ``PMKFinalizer``.
    ///
    /// Under the default policy (`conf.catchPolicy`, `.allErrorsExceptCancellation`) `body` is not called for
    /// cancellation errors (see `Error.isCancelled`); the finalizer still runs.
    #if CheckedHandlers
        @_disfavoredOverload  // `on: .main` picks the main-actor form (Thenable+MainActor.swift)
    #endif
    @inlinable @discardableResult
    public func `catch`(
        on: DispatchQueue? = conf.Q.return, flags: DispatchWorkItemFlags? = nil,
        policy: CatchPolicy = conf.catchPolicy, _ body: @escaping PMKGuaranteedHandler<Error, Void>
    ) -> PMKFinalizer {
        let finalizer = PMKFinalizer(on: on, flags: flags, policy: policy, body)
        pipe {
            if case .rejected(let error) = $0 { finalizer.end(error) } else { finalizer.end(nil) }
        }
        return finalizer
    }

    /// Continues the chain after a rejection with the thenable `body` returns (or rejects again if it throws).
    /// Cancellation errors pass through untouched under the default policy.
    #if CheckedHandlers
        @_disfavoredOverload  // `on: .main` picks the main-actor form (Thenable+MainActor.swift)
    #endif
    @inlinable
    public func recover<U: Thenable>(
        on: DispatchQueue? = conf.Q.map, flags: DispatchWorkItemFlags? = nil,
        policy: CatchPolicy = conf.catchPolicy, _ body: @escaping PMKHandler<Error, U>
    ) -> Promise<T> where U.T == T {
        let follow = Follow(on: on, flags: flags, policy: policy, body)
        pipe {
            switch $0 {
            case .fulfilled(let value):
                follow.promise.seal(.fulfilled(value))
            case .rejected(let error) where follow.policy.handles(error):
                follow.call(error)
            case .rejected(let error):
                follow.promise.seal(.rejected(error))
            }
        }
        return follow.promise
    }

    /// Recovers from every error, cancellation included, with a guarantee: the chain cannot reject any more.
    #if CheckedHandlers
        @_disfavoredOverload  // with the other plain forms, keeping their order (Thenable+MainActor.swift)
    #endif
    @inlinable @discardableResult
    public func recover(
        on: DispatchQueue? = conf.Q.map, flags: DispatchWorkItemFlags? = nil,
        _ body: @escaping PMKGuaranteedHandler<Error, Guarantee<T>>
    ) -> Guarantee<T> {
        let rg = Guarantee<T>(.pending)
        nonisolated(unsafe) let body: (any Error) -> Guarantee<T> = body
        pipe {
            switch $0 {
            case .fulfilled(let value):
                rg.seal(value)
            case .rejected(let error):
                let recovered = UncheckedSendable(rg)  // sealed under its barrier, whatever `T`
                on.dispatch(flags: flags) { body(error).pipe { (value: T) in recovered.value.seal(value) } }
            }
        }
        return rg
    }

    /// Runs `body` when this resolves either way, then passes the result on.
    ///
    ///     firstly { spinner.start(); return fetch() }.ensure { spinner.stop() }.catch { ... }
    #if CheckedHandlers
        @_disfavoredOverload  // `on: .main` picks the main-actor form (Thenable+MainActor.swift)
    #endif
    @inlinable
    public func ensure(
        on: DispatchQueue? = conf.Q.return, flags: DispatchWorkItemFlags? = nil, _ body: @escaping PMKThunk<Void>
    ) -> Promise<T> {
        let rp = Promise<T>(.pending)
        nonisolated(unsafe) let body: () -> Void = body
        pipe {
            let promise = UncheckedSendable(rp)  // sealed under its barrier, whatever `T`
            nonisolated(unsafe) let result = $0
            on.dispatch(flags: flags) {
                body()
                promise.value.seal(result)
            }
        }
        return rp
    }

    /// Runs `body` when this resolves either way and waits for the guarantee it returns before passing the result on.
    ///
    /// As in PromiseKit, the returned promise settles from a `done` on the guarantee with its default queue,
    /// `conf.Q.return` (the main queue unless set), whatever `on` is: handlers chained to it with `on: nil` run there.
    @inlinable
    public func ensureThen(
        on: DispatchQueue? = conf.Q.return, flags: DispatchWorkItemFlags? = nil,
        _ body: @escaping PMKThunk<Guarantee<Void>>
    ) -> Promise<T> {
        let rp = Promise<T>(.pending)
        nonisolated(unsafe) let body: () -> Guarantee<Void> = body
        pipe {
            let promise = UncheckedSendable(rp)  // sealed under its barrier, whatever `T`
            nonisolated(unsafe) let result = $0
            on.dispatch(flags: flags) {
                body().done(on: conf.Q.return) { promise.value.seal(result) }
            }
        }
        return rp
    }

    /// Ends the chain, sending any error (cancellation excepted) to `conf.logHandler` as `.cauterized`. Use it
    /// where you know no `catch` is needed.
    @inlinable @discardableResult
    public func cauterize() -> PMKFinalizer {
        self.catch { conf.logHandler(.cauterized($0)) }
    }
}

extension CatchMixin where T == Void {
    /// Recovers a `Void` chain from every error, cancellation included; the chain cannot reject any more.
    #if CheckedHandlers
        @_disfavoredOverload  // with the other plain forms, keeping their order (Thenable+MainActor.swift)
    #endif
    @inlinable @discardableResult
    public func recover(
        on: DispatchQueue? = conf.Q.map, flags: DispatchWorkItemFlags? = nil,
        _ body: @escaping PMKGuaranteedHandler<Error, Void>
    ) -> Guarantee<Void> {
        let rg = Guarantee<Void>(.pending)
        nonisolated(unsafe) let body: (any Error) -> Void = body
        pipe {
            switch $0 {
            case .fulfilled:
                rg.seal(())
            case .rejected(let error):
                on.dispatch(flags: flags) {
                    body(error)
                    rg.seal(())
                }
            }
        }
        return rg
    }

    /// Recovers a `Void` chain unless `body` throws; cancellation passes through under the default policy.
    #if CheckedHandlers
        @_disfavoredOverload  // with the other plain forms, keeping their order (Thenable+MainActor.swift)
    #endif
    @inlinable
    public func recover(
        on: DispatchQueue? = conf.Q.map, flags: DispatchWorkItemFlags? = nil,
        policy: CatchPolicy = conf.catchPolicy, _ body: @escaping PMKHandler<Error, Void>
    ) -> Promise<Void> {
        let rp = Promise<Void>(.pending)
        nonisolated(unsafe) let body: (any Error) throws -> Void = body
        pipe {
            switch $0 {
            case .fulfilled:
                rp.seal(.fulfilled(()))
            case .rejected(let error) where policy.handles(error):
                on.dispatch(flags: flags) {
                    do {
                        try body(error)
                        rp.seal(.fulfilled(()))
                    } catch {
                        rp.seal(.rejected(error))
                    }
                }
            case .rejected(let error):
                rp.seal(.rejected(error))
            }
        }
        return rp
    }
}
