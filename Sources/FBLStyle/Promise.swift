// The core of FBLStyle: Google Promises' mechanism, in Swift. Two things make it up: the observers registered on each
// promise, closures that receive its resolution and hand user blocks to their queues; and one process-wide dispatch
// group, `DispatchGroup.promises`, entered by every pending promise and by every block in flight, which is what
// `waitForPromises(timeout:)` waits on.
//
// Invariants (each holds at every moment another thread can observe):
// 1. `state` leaves `.pending` once, under `lock`, and never changes again; the value or error is stored with it.
// 2. A promise created pending holds exactly one entry in the global group until it is resolved or deallocated;
//    a promise created resolved never enters it.
// 3. Every user block handed to a queue is inside the global group from the moment it is dispatched until it returns.
// 4. A resolved promise leaves the group only after the blocks of its observers have entered it, so the group never
//    looks idle while promise work is on its way.
// 5. A user block never runs inside the call that registers it, nor inside `fulfill`/`reject`: always later, on its
//    queue. Only library-internal observers run inline.
// 6. Observers receive the resolution in the order they were registered, including those registered while the
//    resolution is being handed out.
// 7. A fulfilled promise never holds an error value (as `ErrorValue.swift` defines one): a fulfilment with an error
//    is stored as a rejection with it (`fulfilment(with:)`), as Google's core does.
//
// State. A promise is pending, fulfilled or rejected; `state` (with the value or error) is set exactly once
// under `lock`. A second `fulfill`/`reject` finds it set and changes nothing, so when many threads race to resolve,
// exactly one wins. The lock is a `PromiseLock` (`PromiseLock.swift` says why): on Apple platforms an
// `os_unfair_lock`, which donates priority to its owner, allocated once per promise so that it never moves; on Linux
// one atomic word stored inline in the object, which the thread sanitizer understands. Only the Linux branch is built
// and tested by this repository's CI.
//
// Observers. `then`, `catch`, `always` and friends do not run anything themselves: they create the chained promise
// and register an observer, a closure that receives the resolution. The first observer is stored in a plain field
// (no array for the common case of one chained block); only further observers go into `moreObservers`. Resolution
// swaps the observers out under the lock and runs them after unlocking, in registration order. Registering on a
// promise that is already resolved hands the observer its resolution at once, except while the resolving thread is
// still handing out resolutions ("draining"): then the observer joins the list and is handed its resolution next,
// so that no block reaches a queue ahead of one registered before it. (Google's FBLPromise gets the same order by
// dispatching the blocks while it holds its lock; here inline observers run too, so they must run unlocked.)
//
// Allocation. Handing a block to its queue costs what `queue.async` costs; the observer path adds as little as it can.
// When a promise resolves, a queued first observer stays in its field and the block dispatched for it captures only
// the promise (`runFirstObserver`), so it needs no allocation beyond the block itself; `then` on a promise that is
// already resolved skips the observer and dispatches its block directly.
//
// The global group. Every promise created pending enters the process-wide `DispatchGroup.promises` in its
// initializer and leaves it when it is resolved. An observer for a user block hands that block to its queue with
// `queue.async(group: DispatchGroup.promises)`, which enters the group until the block returns. Observers are
// dispatched before the resolved promise leaves, so the group's count never drops to zero while work is still on its
// way: it counts pending promises and blocks in flight, and `waitForPromises(timeout:)` waits for it to drain.
// Consequences: a promise that is never resolved keeps the group entered, so `waitForPromises` returns `false` while
// it is alive; a pending promise that is deallocated leaves the group in `deinit` so that it blocks no later wait.
//
// Queue hops. User blocks always run asynchronously on their queue, never inside the call that registers them and
// never inside `fulfill`/`reject`. Library-internal observers that only move a resolution from one promise to another
// (adopting a promise returned from a block, `all`, `any`, `race`, `timeout`, `delay`, `async()`) run inline on the
// resolving thread. To keep long chains of such hand-overs from nesting on the stack, inline observers run through a
// per-thread drain loop (`InlineDrain`), which also releases the observers of a deallocated pending promise
// iteratively, so that dropping a chain of a million pending promises does not recurse a million `deinit`s deep.
//
// Concurrency. As in the original, user closures are plain `@escaping`, not `@Sendable`, and values are
// unconstrained, so closures and values written for Google Promises need not be `Sendable` in Swift 6 mode. `Promise`
// is `@unchecked Sendable`: all mutable state is guarded by `lock`, and closures move to their queue through
// `nonisolated(unsafe)` locals. Whether a user closure may touch state from the queue it runs on stays the caller's
// responsibility, exactly as with the original.

import Dispatch

/// The process-wide group every pending promise and every dispatched block belongs to (`DispatchGroup.promises`).
@usableFromInline let promisesGroup = DispatchGroup()

/// The state of a promise (outside the generic class, so that testing it needs no generic metadata).
@usableFromInline enum PromiseState: UInt8 {
    case pending, fulfilled, rejected
}

/// A promise in the manner of Google's Promises (`FBLPromise`): a value, or an error, that becomes available later.
///
/// Create a pending promise with ``pending()`` and resolve it with ``fulfill(_:)`` or ``reject(_:)``; create one
/// already resolved with `Promise(42)` or `Promise<Int>(error)`; or let a block resolve it with
/// `Promise(on: queue) { fulfill, reject in ... }`. Chain blocks with `then`, `catch`, `always`, `recover` and the
/// other operators; each block runs asynchronously on the queue you pass (``Dispatch/DispatchQueue/promises`` by
/// default, the main queue unless you change it).
///
/// Every pending promise belongs to the global ``Dispatch/DispatchGroup/promises`` group until it is resolved, and
/// every chained block belongs to it while it is queued or running; ``waitForPromises(timeout:)`` waits on that group.
///
/// As in the original, fulfilling a promise with a value that is an `Error` rejects it with that error, and
/// ``value`` reads a `nil` fulfilment of an optional as `nil`, while blocks receive it as `NSNull()` where `Value` can
/// hold one (`BridgedNil.swift`). The difference from the original: there is no Objective-C bridge (`asObjCPromise`,
/// `ObjCPromise`, `asMaybe`); the module overview lists every difference.
public final class Promise<Value>: @unchecked Sendable {
    /// The outcome of a resolved promise.
    @usableFromInline typealias Resolution = Result<Value, any Error>

    /// A registered observer. `queue == nil` marks a library-internal observer that runs inline.
    @usableFromInline struct Observer {
        @usableFromInline let queue: DispatchQueue?
        @usableFromInline let body: (Resolution) -> Void

        @inlinable init(queue: DispatchQueue?, body: @escaping (Resolution) -> Void) {
            self.queue = queue
            self.body = body
        }
    }

    @usableFromInline let lock = PromiseLock()
    /// Pending, fulfilled or rejected; set once. Stored apart from the value and error (rather than as one
    /// `Result?`) so that `deinit`, which runs unspecialized, can test it without looking up generic metadata.
    @usableFromInline @exclusivity(unchecked) var state = PromiseState.pending
    /// The value, once fulfilled.
    @usableFromInline @exclusivity(unchecked) var fulfilledValue: Value?
    /// The error, once rejected.
    @usableFromInline @exclusivity(unchecked) var rejectionError: (any Error)?
    /// The first observer's queue, stored without an array (see `observer`).
    @usableFromInline @exclusivity(unchecked) var firstObserverQueue: DispatchQueue?
    /// The first observer's body. Queue and body are stored as two plain fields rather than one `Observer?`, so that
    /// the unspecialized `deinit` destroys them without looking up generic metadata.
    @usableFromInline @exclusivity(unchecked) var firstObserverBody: ((Resolution) -> Void)?
    /// Observers beyond the first, in registration order.
    @usableFromInline @exclusivity(unchecked) var moreObservers: [Observer]?
    /// Whether the resolving thread is still handing observers their resolution; observers registered meanwhile join
    /// `moreObservers` and are handed theirs next, so that none overtakes an earlier one (Promises/A+ 2.2.6).
    @usableFromInline @exclusivity(unchecked) var draining = false
    /// The task settling a promise made by `init(priority:operation:)`, so that `async()` can forward cancellation.
    @usableFromInline @exclusivity(unchecked) var operationTask: Task<Void, Never>?

    /// Creates a pending promise: it enters the global group until it is resolved or deallocated.
    @inlinable init(pending: Void) {
        promisesGroup.enter()
    }

    /// Creates a promise that is resolved from the start; it never enters the global group.
    @inlinable init(resolved resolution: Resolution) {
        store(resolution)
    }

    deinit {
        // `deinit` has exclusive access, no lock needed.
        guard state == .pending else { return }
        // A pending promise nobody can resolve any more: leave the group so that it does not block later waits.
        promisesGroup.leave()
        // Its observers hold the promises chained on it; release them without recursing through the whole chain.
        // (`take()` moves them out, so that the drain holds their last reference.)
        if firstObserverBody != nil {
            InlineDrain.current.release(firstObserverBody.take() as Any)
        }
        if moreObservers != nil {
            InlineDrain.current.release(moreObservers.take() as Any)
        }
    }

    // MARK: Creating

    /// Creates a new pending promise, to be resolved later with ``fulfill(_:)`` or ``reject(_:)``.
    ///
    /// Until it is resolved, the promise keeps the global group ``Dispatch/DispatchGroup/promises`` entered.
    @inlinable public static func pending() -> Promise<Value> {
        Promise(pending: ())
    }

    /// Creates a new pending promise, to be resolved later with ``fulfill(_:)`` or ``reject(_:)``.
    @inlinable public convenience init() {
        self.init(pending: ())
    }

    /// Creates a new promise rejected with the given `error`.
    @inlinable public convenience init(_ error: any Error) {
        self.init(resolved: .failure(error))
    }

    /// Creates a new promise fulfilled with the value of `work`, or rejected with the error it throws.
    ///
    /// `work` is an autoclosure evaluated at once, so `Promise(42)` is a fulfilled promise and
    /// `Promise(try load())` is fulfilled or rejected depending on `load()`.
    @inlinable public convenience init(_ work: @autoclosure () throws -> Value) {
        do {
            self.init(resolved: Self.fulfilment(with: try work()))
        } catch {
            self.init(resolved: .failure(error))
        }
    }

    // MARK: Resolving

    /// Fulfills `self` with `value`, unless it is already resolved (then nothing changes).
    ///
    /// A `value` that is an `Error` (also inside an `Optional` or an existential such as `Any`) rejects `self` with
    /// it instead, as in the original.
    @inlinable public func fulfill(_ value: Value) {
        resolve(Self.fulfilment(with: value))
    }

    /// Rejects `self` with `error`, unless it is already resolved (then nothing changes).
    @inlinable public func reject(_ error: any Error) {
        resolve(.failure(error))
    }

    /// The resolution of fulfilling with `value`: a rejection when `value` is an error (`ErrorValue.swift` says
    /// which values are), as in the original, whether it comes from `fulfill`, `Promise(error)` without a type
    /// annotation, a block returning an error, or a completion handler passing an `(any Error)?`.
    @inlinable static func fulfilment(with value: Value) -> Resolution {
        if !isNeverErrorOrNull, let error = fulfilmentError(of: value) { return .failure(error) }
        return .success(value)
    }

    /// Whether `Value` is one of the most common types, whose values are never an error and never stand for `nil`:
    /// `Void` (a tuple) cannot conform to `Error`, and the original converts `Bool`, `Int`, `Double` and `String` to
    /// Objective-C classes that are no errors and no `NSNull` (`NSNumber`, `NSString`), even when they are made to
    /// conform. The fulfilment's error check and the `NSNull` of `BridgedNil.swift` skip these types here, where the
    /// optimizer sees `Value` in a client's specialization and drops the comparisons.
    @inlinable static var isNeverErrorOrNull: Bool {
        Value.self == Void.self || Value.self == Bool.self || Value.self == Int.self || Value.self == Double.self
            || Value.self == String.self
    }

    /// Sets the resolution once and hands it to every observer.
    @inlinable func resolve(_ newResolution: Resolution) {
        var first: Observer?
        var rest: [Observer]?
        var drains = false
        let won = lock.withLock { () -> Bool in
            guard self.state == .pending else { return false }
            self.store(newResolution)
            first = self.observer
            if first?.queue == nil { self.observer = nil }  // a queued first observer stays for `runFirstObserver`
            rest = self.moreObservers
            self.moreObservers = nil
            self.operationTask = nil
            self.draining = first != nil || rest != nil
            drains = self.draining
            return true
        }
        guard won else { return }
        if let first {
            if let queue = first.queue {
                // The block captures only `self`, so handing it over costs no allocation beyond the block itself.
                queue.async(group: promisesGroup) { self.runFirstObserver() }
            } else {
                Self.notify(first, of: newResolution)
            }
        }
        // Hand out the rest, then whatever was registered meanwhile, until the list stays empty.
        var batch = rest
        while drains {
            for observer in batch ?? [] {
                Self.notify(observer, of: newResolution)
            }
            batch = lock.withLock {
                let added = self.moreObservers
                self.moreObservers = nil
                self.draining = added != nil
                return added
            }
            drains = batch != nil
        }
        // Leave only after the observers' blocks have entered the group, so that the group never looks idle early.
        promisesGroup.leave()
    }

    /// The first observer, kept in `firstObserverQueue` and `firstObserverBody` (under the lock).
    @inlinable var observer: Observer? {
        get {
            guard let body = firstObserverBody else { return nil }
            return Observer(queue: firstObserverQueue, body: body)
        }
        set {
            firstObserverQueue = newValue?.queue
            firstObserverBody = newValue?.body
        }
    }

    /// Records `resolution` in the stored properties (under the lock, or in an initializer).
    @inlinable func store(_ resolution: Resolution) {
        switch resolution {
        case .success(let value):
            fulfilledValue = value
            state = .fulfilled
        case .failure(let error):
            rejectionError = error
            state = .rejected
        }
    }

    /// The resolution recorded in the stored properties, or `nil` while pending (under the lock, or once resolved).
    @inlinable var storedResolution: Resolution? {
        switch state {
        case .pending: return nil
        case .fulfilled: return .success(fulfilledValue!)
        case .rejected: return .failure(rejectionError!)
        }
    }

    /// Runs the queued first observer on its queue. After resolution nothing else touches `observer`.
    @inlinable func runFirstObserver() {
        let observer = self.observer!
        self.observer = nil
        observer.body(self.storedResolution!)
    }

    /// Adopts the eventual resolution of `other` (used when a block returns a promise); a promise told to adopt
    /// itself is rejected with ``PromiseCycleError`` instead of waiting for itself forever.
    @inlinable func resolve(with other: Promise<Value>) {
        guard other !== self else {
            resolve(.failure(PromiseCycleError()))
            return
        }
        other.observe(on: nil) { resolution in
            self.resolve(resolution)
        }
    }

    // MARK: Observing

    /// Registers `body` to receive the resolution: on `queue` via `async(group:)`, or inline when `queue` is nil.
    @inlinable func observe(on queue: DispatchQueue?, _ body: @escaping (Resolution) -> Void) {
        let resolved: Resolution? = lock.withLock {
            if let resolution = self.storedResolution {
                guard self.draining else { return resolution }
                self.moreObservers = (self.moreObservers ?? []) + [Observer(queue: queue, body: body)]
                return nil
            }
            let observer = Observer(queue: queue, body: body)
            if self.observer == nil {
                self.observer = observer
            } else if self.moreObservers == nil {
                self.moreObservers = [observer]
            } else {
                self.moreObservers!.append(observer)
            }
            return nil
        }
        if let resolved {
            Self.notify(Observer(queue: queue, body: body), of: resolved)
        }
    }

    /// Runs one observer: dispatches it to its queue inside the global group, or runs it inline through the drain.
    @inlinable static func notify(_ observer: Observer, of resolution: Resolution) {
        nonisolated(unsafe) let body = observer.body
        nonisolated(unsafe) let resolution = resolution
        if let queue = observer.queue {
            queue.async(group: promisesGroup) { body(resolution) }
        } else {
            InlineDrain.current.run { body(resolution) }
        }
    }

    // MARK: State

    /// The task created by `init(priority:operation:)`, if any and while pending.
    var pendingOperationTask: Task<Void, Never>? {
        lock.withLock { self.operationTask }
    }

    /// Records the task settling this promise, unless the promise is already resolved.
    func setOperationTask(_ task: Task<Void, Never>) {
        lock.withLock {
            if self.state == .pending { self.operationTask = task }
        }
    }

    /// The resolution, or `nil` while pending.
    @inlinable var currentResolution: Resolution? {
        lock.withLock { self.storedResolution }
    }

    /// The resolution, or `nil` while pending or while the resolving thread is still handing observers theirs: a
    /// block dispatched straight to its queue must not overtake blocks registered before it.
    @inlinable var readyResolution: Resolution? {
        lock.withLock { self.draining ? nil : self.storedResolution }
    }

    /// Whether the promise is still pending.
    public var isPending: Bool {
        currentResolution == nil
    }

    /// Whether the promise is fulfilled.
    public var isFulfilled: Bool {
        if case .success = currentResolution { return true }
        return false
    }

    /// Whether the promise is rejected.
    public var isRejected: Bool {
        if case .failure = currentResolution { return true }
        return false
    }

    /// The value the promise was fulfilled with, or `nil` while pending, when rejected, or when the value is an
    /// optional's `nil`.
    ///
    /// As in the original, a `nil` value is flattened: a `Promise<Int?>` fulfilled with `nil` has `value == nil`
    /// (not `Optional(nil)`), so `if let value = promise.value` takes the `else` branch, the same as while pending.
    /// Use ``isFulfilled`` to tell a `nil` value from a promise that has none.
    public var value: Value? {
        guard case .success(let value) = currentResolution else { return nil }
        if let optional = value as? any AnyOptional, optional.isNilAtAnyDepth { return nil }
        return value
    }

    /// The error the promise was rejected with, or `nil` while pending or when fulfilled.
    public var error: (any Error)? {
        if case .failure(let error) = currentResolution { return error }
        return nil
    }
}

extension Promise: CustomStringConvertible {
    /// `Fulfilled: <value>`, `Rejected: <error>` or `Pending: <Value type>`, as in the original.
    public var description: String {
        switch currentResolution {
        case .success(let value): return "Fulfilled: \(value)"
        case .failure(let error): return "Rejected: \(error)"
        case nil: return "Pending: \(Value.self)"
        }
    }
}
