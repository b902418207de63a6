// Promise.swift: the core of FBLStyle, Google Promises' mechanism in Swift. Read this file first.
//
// THE MECHANISM: observers on each promise, and one process-wide dispatch group. `then`, `catch` and the other
// operators create the chained promise and register an observer on `self`: a closure that will receive the resolution
// and hand the user's block to its queue with `queue.async(group: DispatchGroup.promises)`. Adopting a promise a block
// returned goes through the block's queue too, and `all`, `any`, `race`, `timeout` and `delay` observe theirs on the
// queue they are given, as in Google's core; the other library-internal observers (`async()`, `await`, the records of
// `all` and `any`) have no queue and run inline, through the thread's `ObserverTrampoline`. Resolving takes the lock,
// stores the resolution, swaps the observer list out, unlocks and runs each observer. Until it has run them all, the
// promise is "draining": an observer registered meanwhile joins the list and runs next, so that none overtakes an
// earlier one (Google's FBLPromise gets that order by dispatching under its lock; here inline observers run too, so
// they must run unlocked). Every pending promise and every block in flight is in `DispatchGroup.promises`, which is
// what `waitForPromises(timeout:)` waits on.
//
// INVARIANTS (each holds at every moment another thread can observe):
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
// The lock is a `PromiseLock` (PromiseLock.swift says which primitive on which platform, and why). The observer list
// stores one observer without an array, and the first queued observer reaches its block through the promise itself,
// without a context to allocate (`handedOff`, ObserverList.swift). A pending promise that is deallocated leaves the
// group and lets go of its observers through the trampoline, so that dropping a long pending chain does not recurse
// through its `deinit`s. As in the original, blocks are plain `@escaping` closures and values need not be `Sendable`:
// `Promise` is `@unchecked Sendable`, its mutable state guarded by `lock` (but `handedOff`, which only the resolving
// thread writes before it dispatches, and only the block it dispatches reads), and closures move to their queue
// through `nonisolated(unsafe)` locals.

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

    /// Guards every field below but `handedOff` (PromiseLock.swift).
    @usableFromInline let lock = PromiseLock()
    /// Pending, fulfilled or rejected; set once. Stored apart from the value and error (rather than as one
    /// `Result?`) so that `deinit`, which runs unspecialized, can test it without looking up generic metadata.
    @usableFromInline @exclusivity(unchecked) var state = PromiseState.pending
    /// The value, once fulfilled.
    @usableFromInline @exclusivity(unchecked) var fulfilledValue: Value?
    /// The error, once rejected.
    @usableFromInline @exclusivity(unchecked) var rejectionError: (any Error)?
    /// The observers waiting for the resolution, in registration order.
    @usableFromInline @exclusivity(unchecked) var observers = ObserverList()
    /// Whether the resolving thread is still handing out the resolution; observers registered meanwhile join
    /// `observers` and are handed theirs next, so that none overtakes an earlier one (Promises/A+ 2.2.6).
    @usableFromInline @exclusivity(unchecked) var draining = false
    /// The body of the first queued observer, from the resolution until its block runs (ObserverList.swift).
    @usableFromInline @exclusivity(unchecked) var handedOff: ((Resolution) -> Void)?
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
        // Its observers hold the promises chained on it; let go of them without recursing through the whole chain.
        // (`take()` moves them out, so that the trampoline holds their last reference.)
        if !observers.isEmpty {
            ObserverTrampoline.current.release(observers.take())
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

    /// Sets the resolution once: lock, store it and swap the observers out, unlock, run each; then run those
    /// registered meanwhile, until none is left.
    @inlinable func resolve(_ resolution: Resolution) {
        lock.lock()
        guard state == .pending else { return lock.unlock() }
        store(resolution)
        operationTask = nil
        var batch = observers.take()
        draining = !batch.isEmpty
        lock.unlock()
        // Run each (the first through the hand-off), then those registered meanwhile, until none is left.
        if let first = batch.removeFirst() {
            notifyFirst(first, of: resolution)
            repeat {
                batch.notifyEach(of: resolution)
                batch = lock.withLock {
                    let registered = observers.take()
                    draining = !registered.isEmpty
                    return registered
                }
            } while !batch.isEmpty
        }
        // Leave only after the observers' blocks have entered the group, so that the group never looks idle early.
        promisesGroup.leave()
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

    /// Adopts the eventual resolution of `other` (used when a block returns a promise) through `queue`, the block's
    /// queue, as Google's core does: an observer of `other` resolves `self` there, even if `other` is settled. A
    /// promise told to adopt itself is rejected with ``PromiseCycleError`` instead of waiting for itself forever.
    @inlinable func resolve(with other: Promise<Value>, on queue: DispatchQueue) {
        guard other !== self else {
            resolve(.failure(PromiseCycleError()))
            return
        }
        other.observe(on: queue) { resolution in
            self.resolve(resolution)
        }
    }

    // MARK: Observing

    /// Registers `body` to receive the resolution: on `queue` via `async(group:)`, or inline when `queue` is nil. On a
    /// resolved promise it runs at once, unless the resolving thread is still draining (then it joins the list).
    @inlinable func observe(on queue: DispatchQueue?, _ body: @escaping (Resolution) -> Void) {
        let resolved: Resolution? = lock.withLock {
            guard state != .pending, !draining else {
                observers.append(Observer(queue: queue, body: body))
                return nil
            }
            return storedResolution
        }
        if let resolved {
            Self.notify(Observer(queue: queue, body: body), of: resolved)
        }
    }

    /// Runs one observer: dispatches it to its queue inside the global group, or runs it inline on the trampoline.
    @inlinable static func notify(_ observer: Observer, of resolution: Resolution) {
        nonisolated(unsafe) let body = observer.body
        nonisolated(unsafe) let resolution = resolution
        if let queue = observer.queue {
            queue.async(group: promisesGroup) { body(resolution) }
        } else {
            ObserverTrampoline.current.run { body(resolution) }
        }
    }

    /// The resolution, or `nil` while pending.
    @inlinable var currentResolution: Resolution? {
        lock.withLock { storedResolution }
    }

    /// The resolution, or `nil` while pending or while the resolving thread is still handing observers theirs: a
    /// block dispatched straight to its queue must not overtake blocks registered before it.
    @inlinable var readyResolution: Resolution? {
        lock.withLock { draining ? nil : storedResolution }
    }
}
