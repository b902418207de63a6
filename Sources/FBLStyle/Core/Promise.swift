// Promise.swift: the core of FBLStyle, Google Promises' mechanism in Swift: observers on each promise, and one
// process-wide dispatch group, `promisesGroup`, that every pending promise and every block in flight is inside, and
// that `waitForPromises(timeout:)` waits on. The DocC article "How observers and the global group work" tells it all.
//
// `then` and the other operators register an observer on `self` (`observe`). Resolving (`resolve`) takes the lock,
// settles the state machine (PromiseStateMachine.swift) and stores the resolution, unlocks and drains: it runs the
// observers it took out, then those registered meanwhile, until a batch leaves none behind. A queued observer hands
// its block to its queue with `async(group: promisesGroup)`; an inline one (library-internal) runs through the
// thread's `ObserverTrampoline`.
//
// INVARIANTS (each holds at every moment another thread can observe):
// 1. A promise is settled once, under `lock`; its value or error is stored then and never changes again.
// 2. A promise created pending is in the group until it is resolved or freed; one created resolved never enters it.
// 3. Every user block handed to a queue is in the group from its dispatch until it returns.
// 4. A resolved promise leaves the group only after its observers' blocks entered it: the group never looks idle early.
// 5. A user block never runs inside the call that registers it, nor inside `fulfill`/`reject`: always on its queue.
// 6. Observers receive the resolution in registration order, those registered while it is handed out included, and
//    none runs nested inside another (the machine's rule "none nested").
// 7. A fulfilment with an error value is stored as a rejection with it (`fulfilment(with:)`, ErrorValue.swift).
//
// `Promise` is `@unchecked Sendable`: its mutable state is guarded by `lock` (all but `handedOff`, see below), and
// closures, whose values need not be `Sendable` (as in the original), reach their queue through `nonisolated(unsafe)`.
// Under the trait CheckedHandlers the blocks are `@Sendable` (their aliases, `Then` and the others) and `Promise` is
// `Sendable` only where `Value` is: a promise shared between threads shares its value.

import Dispatch
import PromisePlumbing

/// The process-wide group every pending promise and every dispatched block belongs to (`DispatchGroup.promises`).
@usableFromInline let promisesGroup = DispatchGroup()

/// A promise in the manner of Google's Promises (`FBLPromise`): a value, or an error, that becomes available later.
///
/// Create one pending with ``pending()`` and resolve it with ``fulfill(_:)`` or ``reject(_:)``; create one resolved
/// with `Promise(42)` or `Promise<Int>(error)`; or let a block resolve it: `Promise(on: queue) { fulfill, reject in }`.
/// Blocks chained with `then`, `catch`, `recover` and the other operators run asynchronously on the queue you pass
/// (``Dispatch/DispatchQueue/promises`` by default). Pending promises and chained blocks belong to the global group
/// ``Dispatch/DispatchGroup/promises`` until resolved or returned; ``waitForPromises(timeout:)`` waits on it. As in
/// the original, fulfilling with an `Error` rejects; the module overview lists what differs from the original.
public final class Promise<Value> {
    /// The outcome of a resolved promise.
    @usableFromInline typealias Resolution = Result<Value, any Error>

    /// Guards every field below but `handedOff` (`Lock`, PromisePlumbing).
    @usableFromInline let lock = Lock()
    /// The phase (pending, draining or resolved) and the observers waiting (PromiseStateMachine.swift).
    @usableFromInline @exclusivity(unchecked) var machine: PromiseStateMachine<Value>
    /// The value, once fulfilled. Beside the machine, not in it: a `Value?` there costs `deinit` a metadata lookup.
    @usableFromInline @exclusivity(unchecked) var fulfilledValue: Value?
    /// The error, once rejected.
    @usableFromInline @exclusivity(unchecked) var rejectionError: (any Error)?
    /// The body of the first queued observer, from the resolution until its block runs (ObserverList.swift). Neither in
    /// the machine nor under the lock: only the resolving thread writes it, then dispatches the one block reading it.
    @usableFromInline @exclusivity(unchecked) var handedOff: ((Resolution) -> Void)?
    /// The task settling a promise made by `init(priority:operation:)`, so that `async()` can forward cancellation.
    /// Not in the machine: no transition depends on it; resolving only lets go of it.
    @usableFromInline @exclusivity(unchecked) var operationTask: Task<Void, Never>?

    // MARK: The mechanism: lock, call one transition of the machine, unlock, perform the action it returned

    /// Registers `body` to receive the resolution: on `queue` via `async(group:)`, or inline when `queue` is nil. It
    /// waits while the promise is pending or draining, and runs at once when it is resolved and done draining.
    @inlinable func observe(on queue: DispatchQueue?, _ body: @escaping (Resolution) -> Void) {
        lock.lock()
        switch machine.register(Observer(queue: queue, body: body)) {
        case .wait:
            lock.unlock()
        case .runNow:
            let resolution = storedResolution
            lock.unlock()
            Self.notify(Observer(queue: queue, body: body), of: resolution)
        }
    }

    /// Settles `self` once: lock, settle the machine and store the resolution, unlock, run the observers taken out.
    @inlinable func resolve(_ resolution: Resolution) {
        let action = lock.withLock {
            let action = machine.settle()
            if case .alreadySettled = action { return action }
            store(resolution)
            operationTask = nil
            return action
        }
        switch action {
        case .alreadySettled: return
        case .settledWithoutWaiters: break
        case .drain(let batch): drain(batch, with: resolution)
        }
        // Leave only after the observers' blocks have entered the group, so that the group never looks idle early.
        promisesGroup.leave()
    }

    /// Runs `batch` (its first observer through the hand-off), then each batch registered meanwhile, until the
    /// machine stops draining.
    @inlinable func drain(_ batch: consuming ObserverList, with resolution: Resolution) {
        var batch = batch
        notifyFirst(batch.removeFirst()!, of: resolution)
        while true {
            batch.notifyEach(of: resolution)
            lock.lock()
            let next = machine.afterBatch()
            lock.unlock()
            switch consume next {
            case .drainNext(let registered): batch = registered
            case .stopDraining: return
            }
        }
    }

    // MARK: Entering and leaving the group

    /// Creates a pending promise: it enters the global group until it is resolved or deallocated.
    @inlinable init(pending: Void) {
        machine = PromiseStateMachine(phase: .pending(ObserverList()))
        promisesGroup.enter()
    }

    /// Creates a promise that is resolved from the start; it never enters the global group.
    @inlinable init(resolved resolution: Resolution) {
        machine = PromiseStateMachine(phase: .resolved)
        store(resolution)
    }

    deinit {
        // `deinit` has exclusive access, no lock needed.
        guard machine.isPending else { return }
        // A pending promise nobody can resolve any more: leave the group so that it does not block later waits.
        promisesGroup.leave()
        // Its observers hold the promises chained on it; let go of them without recursing through the whole chain
        // (`consume`: the trampoline must hold their last reference).
        if let observers = machine.takeForRelease() {
            ObserverTrampoline.current.release(consume observers)
        }
    }

    /// Runs one observer: dispatches it to its queue inside the global group, or runs it inline on the trampoline.
    @inlinable static func notify(_ observer: Observer, of resolution: Resolution) {
        nonisolated(unsafe) let body = observer.body
        nonisolated(unsafe) let resolution = resolution
        if let queue = observer.queue {
            queue.async(group: promisesGroup) { body(resolution) }
        } else {
            ObserverTrampoline.run { body(resolution) }
        }
    }

    /// Records `resolution` in `fulfilledValue` or `rejectionError` (under the lock, or in an initializer).
    @inlinable func store(_ resolution: Resolution) {
        switch resolution {
        case .success(let value): fulfilledValue = value
        case .failure(let error): rejectionError = error
        }
    }

    /// The resolution `store(_:)` recorded (read under the lock once the machine is not pending, or once resolved).
    @inlinable var storedResolution: Resolution {
        if let rejectionError { return .failure(rejectionError) }
        return .success(fulfilledValue!)
    }

    /// The resolution, or `nil` while pending.
    @inlinable var currentResolution: Resolution? {
        lock.withLock { machine.isPending ? nil : storedResolution }
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
}

#if CheckedHandlers
    extension Promise: @unchecked Sendable where Value: Sendable {}
#else
    extension Promise: @unchecked Sendable {}
#endif
