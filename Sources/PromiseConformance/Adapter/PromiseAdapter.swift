import Dispatch

/// Plugs a promise implementation into the suite, in the manner of the Promises/A+ JavaScript adapter
/// (`resolved`, `rejected`, `deferred`).
///
/// The suite only ever fulfils promises with ``Sentinel`` values and rejects them with errors it makes, so an adapter
/// works on the implementation's promise of a `Sentinel` (or a wrapper around it). The minimal adapter implements
/// ``name``, ``pending()`` and ``then(_:on:onFulfilled:onRejected:)``; everything else has a default.
///
/// ## Scheduling
/// `then` receives the queue the suite asks handlers to run on. `nil` means "the implementation's default
/// scheduling"; the adapter must map it to something that runs **without `DispatchQueue.main` being served** (the
/// suite never serves the main queue): the implementation's own default when that is not the main queue, or a serial
/// queue standing in for the main queue.
///
/// A+ 2.2.6 orders every handler of one promise by its `then` call, whatever runs it, so the generated programs hold
/// handlers with no queue to that order, as they hold handlers on one serial queue. An implementation whose default
/// runs handlers at the same time (a global queue) departs from 2.2.6 there: say so, with the reason, in
/// ``concurrentDefaultScheduling``, and only handlers on one serial queue are ordered.
///
/// The queue **may be concurrent** (`swift.queue` passes a concurrent one). Run each handler call as one block on it
/// (`queue.async { ... }`). Do not split one delivery into several blocks, such as Combine's `receive(on: queue)`,
/// which schedules the value and the completion separately: on a concurrent queue they may run in either order or at
/// once, and a completion that overtakes its value loses it.
///
/// ## Capabilities
/// Declare in ``capabilities`` what the implementation offers beyond `then`, and implement the members that go with
/// each: ``assimilated(_:)`` with ``Capabilities/assimilation``, ``all(_:completion:)`` with ``Capabilities/all``,
/// ``race(_:)`` with ``Capabilities/race``, ``any(_:)`` with ``Capabilities/any``, and both ``cancellablePending()``
/// and ``isCancellation(_:)`` with ``Capabilities/cancellation``. Their defaults only answer as a failure would: a
/// capability declared without its member fails that capability's clauses with a message naming the member, e.g.
/// "the adapter declares .race but does not implement `race(_:)`".
///
/// `all` hands its values to a completion callback, where `race` and `any` return a promise: their result is one
/// ``Sentinel``, which a promise of this adapter carries, but `all`'s is an array, which a promise of a `Sentinel`
/// cannot; the implementation's own promise of an array is another type, which the adapter turns into the callback.
///
/// ## Deviations
/// List in ``deviations`` the clauses the implementation departs from by design, with the reason. The suite still
/// runs them, reports ``ClauseStatus/deviation(_:)`` when the departure is observed, and a failure
/// ("declared deviation not observed") when the implementation conforms after all.
///
/// A key is a clause id (`"2.3.1"`) for the whole clause, or a clause id, `#` and the name of one of its
/// ``Clause/cases`` (`"2.2.4#then on an already-fulfilled promise"`) for that case alone. Prefer the narrower form:
/// the clause's other cases still run and must pass, so a known difference in one case does not hide a regression in
/// the others. A case's key also covers the case's runs through ``entryPoints`` ("via NAME: case"). Every key is checked (``Conformance/deviationErrors(_:)``): an unknown clause id or case name fails
/// every clause with an error that names it, and `promise-conformance` refuses to run.
///
/// ## Flaky departures
/// A departure that shows in some runs and not in others (an order that depends on scheduling, say) cannot be a
/// deviation, which must show every time. List it in ``flakyDepartures``, by clause id, with the reason: the suite then
/// runs that clause ``Conformance/flakyRepetitions`` times and reports how often it failed, "failed in 3 of 10
/// repetitions", as a ``ClauseStatus/deviation(_:)``. A failure that shows in every repetition is not flaky, and stays
/// a failure: declaring a clause flaky never turns a run green by hiding a failure that shows each time.
public protocol PromiseAdapter: Sendable {
    /// The implementation's promise of a ``Sentinel`` (or a wrapper around it).
    associatedtype Promise: Sendable

    /// The implementation's name, used as the column title of the matrix and by `--style`.
    var name: String { get }

    /// What the implementation offers beyond `then`. Defaults to none.
    var capabilities: Capabilities { get }

    /// Clause id (or `id#case name`, for one case) → why this implementation departs from it by design. Defaults to
    /// none. See "Deviations" above.
    var deviations: [String: String] { get }

    /// Clause id → why this implementation departs from it in some runs but not in others. Defaults to none. See
    /// "Flaky departures" above.
    var flakyDepartures: [String: String] { get }

    /// Why the implementation's default scheduling (`then` with no queue) may run two handlers of one promise at the
    /// same time, or nil (the default) when it runs them one at a time. See "Scheduling" above: with nil, the
    /// generated programs require handlers with no queue to run in the order of their `then` calls (A+ 2.2.6).
    var concurrentDefaultScheduling: String? { get }

    /// The queue the implementation runs handlers registered with no queue on, when it has one of its own (a serial
    /// queue standing in for the main queue, say), or nil (the default). Between two steps of a generated program the
    /// driver sends a block to it, as to the program's queues and to Dispatch's global queue, so that what a step
    /// queued there has started before the next step begins.
    var defaultQueue: DispatchQueue? { get }

    /// A pending promise and the two functions that settle it (the JavaScript adapter's `deferred()`).
    ///
    /// The functions may be called from any thread, more than once, and both; the promise must settle once.
    func pending() -> (promise: Promise, fulfill: @Sendable (Sentinel) -> Void, reject: @Sendable (any Error) -> Void)

    /// A promise already fulfilled with `value`. Defaults to settling a ``pending()`` one.
    func fulfilled(_ value: Sentinel) -> Promise

    /// A promise already rejected with `error`. Defaults to settling a ``pending()`` one.
    func rejected(_ error: any Error) -> Promise

    /// Registers handlers on `promise` and returns the derived promise (A+ 2.2).
    ///
    /// - Parameters:
    ///   - promise: the promise to register the handlers on.
    ///   - queue: where the handlers must run, a serial or a concurrent queue; `nil` means the implementation's
    ///     default scheduling, which must not need the main queue to be served.
    ///   - onFulfilled: `nil` means "no handler": the derived promise is fulfilled with the same value (A+ 2.2.7.3).
    ///   - onRejected: `nil` means "no handler": the derived promise is rejected with the same reason (A+ 2.2.7.4).
    ///     A handler's ``HandlerResult`` says how the derived promise is resolved.
    func then(
        _ promise: Promise,
        on queue: DispatchQueue?,
        onFulfilled: (@Sendable (Sentinel) -> HandlerResult<Promise>)?,
        onRejected: (@Sendable (any Error) -> HandlerResult<Promise>)?
    ) -> Promise

    /// A promise resolved with a foreign thenable (JavaScript's `Promise.resolve(thenable)`).
    /// Required by ``Capabilities/assimilation``.
    func assimilated(_ thenable: any Thenable) -> Promise

    /// Calls `completion` once with every value in input order when all of `promises` fulfil, or with the first
    /// rejection. Required by ``Capabilities/all``.
    ///
    /// A callback, where ``race(_:)`` and ``any(_:)`` return a promise: `all`'s result is an array of values, which a
    /// ``Promise`` (a promise of one ``Sentinel``) cannot carry. Call `completion` from the implementation's own
    /// `all`, as PromiseKitStyle's adapter does: `when(fulfilled: promises).pipe { completion(Swift.Result($0)) }`.
    func all(_ promises: [Promise], completion: @escaping @Sendable (Result<[Sentinel], any Error>) -> Void)

    /// A promise settled like the first of `promises` to settle. Required by ``Capabilities/race``.
    func race(_ promises: [Promise]) -> Promise

    /// A promise fulfilled like the first of `promises` to fulfil, and rejected (with any error) once all of them
    /// have rejected. Required by ``Capabilities/any``.
    func any(_ promises: [Promise]) -> Promise

    /// A pending promise with a fulfil function and a cancel function. Cancelling a pending promise settles it as
    /// cancelled: handlers see an error for which ``isCancellation(_:)`` is true, and promises derived from it
    /// without a rejection handler are cancelled too. Required by ``Capabilities/cancellation``.
    func cancellablePending() -> (promise: Promise, fulfill: @Sendable (Sentinel) -> Void, cancel: @Sendable () -> Void)

    /// Whether `error` is how the implementation reports cancellation to a rejection handler.
    /// Required by ``Capabilities/cancellation``.
    func isCancellation(_ error: any Error) -> Bool

    /// The object whose lifetime `swift.release` and `swift.deepChain` watch for `promise`: the library's own
    /// promise object, or nil when there is none to watch.
    ///
    /// Defaults to `promise` itself when ``Promise`` is a class, and to nil otherwise (then only the handlers' release
    /// is checked). An adapter whose ``Promise`` wraps the library's promise (a struct holding a non-`Sendable`
    /// promise, say, or a class around it) returns the library's object here, so that the suite checks the library
    /// rather than the wrapper:
    ///
    /// ```swift
    /// func lifetimeObject(of promise: Promise) -> AnyObject? { promise.future }
    /// ```
    func lifetimeObject(of promise: Promise) -> AnyObject?

    /// Each public form of `then` users write besides the one ``then(_:on:onFulfilled:onRejected:)`` uses (Bolts'
    /// `continueOnSuccessWith(.immediate)`, PromiseKit's `map`, Google Promises' `recover(on:)`, ...). Defaults to
    /// none. The suite runs the deep-chain clauses, and the `then` clauses whose handlers fit, through each one; see
    /// ``EntryPoint``.
    var entryPoints: [EntryPoint<Promise>] { get }
}

extension PromiseAdapter {
    /// No capability beyond `then`.
    public var capabilities: Capabilities { [] }

    /// No deviation.
    public var deviations: [String: String] { [:] }

    /// None.
    public var flakyDepartures: [String: String] { [:] }

    /// Nil: handlers with no queue run one at a time, in the order of their `then` calls.
    public var concurrentDefaultScheduling: String? { nil }

    /// Nil: the driver flushes the program's queues and Dispatch's global queue only.
    public var defaultQueue: DispatchQueue? { nil }

    /// None: the suite calls ``then(_:on:onFulfilled:onRejected:)`` alone.
    public var entryPoints: [EntryPoint<Promise>] { [] }

    /// Settles a ``pending()`` promise.
    public func fulfilled(_ value: Sentinel) -> Promise {
        let pending = pending()
        pending.fulfill(value)
        return pending.promise
    }

    /// Settles a ``pending()`` promise.
    public func rejected(_ error: any Error) -> Promise {
        let pending = pending()
        pending.reject(error)
        return pending.promise
    }

    /// `promise` itself when ``Promise`` is a class; nil otherwise.
    public func lifetimeObject(of promise: Promise) -> AnyObject? {
        Promise.self is AnyObject.Type ? promise as AnyObject : nil
    }

    /// Not implemented: a promise rejected with an error naming this member. Declaring ``Capabilities/assimilation``
    /// without implementing it fails the assimilation clauses with a message that says so.
    public func assimilated(_ thenable: any Thenable) -> Promise {
        rejected(AdapterMember.assimilated.defaultAnswered(in: name))
    }

    /// Not implemented: calls `completion` with an error naming this member. Declaring ``Capabilities/all`` without
    /// implementing it fails `swift.combinator.all` with a message that says so.
    public func all(_ promises: [Promise], completion: @escaping @Sendable (Result<[Sentinel], any Error>) -> Void) {
        completion(.failure(AdapterMember.all.defaultAnswered(in: name)))
    }

    /// Not implemented: a promise rejected with an error naming this member. Declaring ``Capabilities/race`` without
    /// implementing it fails `swift.combinator.race` with a message that says so.
    public func race(_ promises: [Promise]) -> Promise {
        rejected(AdapterMember.race.defaultAnswered(in: name))
    }

    /// Not implemented: a promise rejected with an error naming this member. Declaring ``Capabilities/any`` without
    /// implementing it fails `swift.combinator.any` with a message that says so.
    public func any(_ promises: [Promise]) -> Promise {
        rejected(AdapterMember.any.defaultAnswered(in: name))
    }

    /// Not implemented: a promise rejected with an error naming this member, and a cancel function that does nothing.
    /// Declaring ``Capabilities/cancellation`` without implementing it fails `swift.cancel` with a message that says so.
    public func cancellablePending() -> (
        promise: Promise, fulfill: @Sendable (Sentinel) -> Void, cancel: @Sendable () -> Void
    ) {
        let pending = pending()
        pending.reject(AdapterMember.cancellablePending.defaultAnswered(in: name))
        return (pending.promise, pending.fulfill, {})
    }

    /// Not implemented: false. Declaring ``Capabilities/cancellation`` without implementing it fails `swift.cancel`
    /// with a message that says so.
    public func isCancellation(_ error: any Error) -> Bool {
        _ = AdapterMember.isCancellation.defaultAnswered(in: name)
        return false
    }
}
