// A small promise written from scratch, to show how any promise type plugs into PromiseConformance.
//
// Mechanism: a state (pending with a list of callbacks, fulfilled, rejected) under a lock (`Locked`, an `NSLock`:
// `Synchronization.Mutex` would do, but the thread sanitizer on Linux does not see its futex and reports false
// races). `then` appends a callback while pending, or dispatches it at once when settled; settling swaps the state
// and dispatches every callback. Callbacks always run asynchronously on their queue (A+ 2.2.4) and are enqueued while
// the lock is held, so handlers registered from one thread run in their registration order even while another thread
// settles the promise. A promise resolved with another promise (or a foreign thenable) is "locked in": later resolve
// calls are ignored, and it settles when the other one does. Callbacks keep their derived promise apart from their
// closure, so `deinit` can release a long unsettled chain iteratively instead of recursing once per link.
import Dispatch
import TestSupport

/// Why a reference promise was rejected by the promise itself.
enum ReferencePromiseError: Error {
    /// A promise was resolved with itself (A+ 2.3.1).
    case resolvedWithItself
    /// `any` of no promise.
    case noInput
}

/// What a handler of ``ReferencePromise/then(on:_:_:)`` resolves the derived promise with.
enum Step<Value: Sendable>: Sendable {
    case value(Value)
    case promise(ReferencePromise<Value>)
}

final class ReferencePromise<Value: Sendable>: @unchecked Sendable {
    private struct Callback: Sendable {
        let queue: DispatchQueue
        /// The derived (or adopting) promise, kept apart from `run` so that `deinit` can release it iteratively.
        let child: ReferencePromise
        let run: @Sendable (Result<Value, any Error>, ReferencePromise) -> Void
    }

    private enum State {
        case pending([Callback])
        case settled(Result<Value, any Error>)
    }

    private let state = Locked<State>(.pending([]))
    /// Set once resolved (settled, or locked in to another promise or thenable); later resolutions are ignored.
    private let resolved = Locked(false)

    init() {}

    init(value: Value) {
        resolved.withLock { $0 = true }
        state.withLock { $0 = .settled(.success(value)) }
    }

    init(error: any Error) {
        resolved.withLock { $0 = true }
        state.withLock { $0 = .settled(.failure(error)) }
    }

    deinit {
        var links = detachChildren()
        while var link = links.popLast() {
            // Only we hold it: empty it now, so that its own deinit, when `link` goes, has nothing to recurse into.
            if isKnownUniquelyReferenced(&link) { links += link.detachChildren() }
        }
    }

    // MARK: Resolving (the first call wins)

    func fulfill(_ value: Value) {
        if claim() { settle(.success(value)) }
    }

    func reject(_ error: any Error) {
        if claim() { settle(.failure(error)) }
    }

    /// Resolves with another promise: settles when it settles (A+ 2.3.2).
    func adopt(_ other: ReferencePromise<Value>) {
        if claim() { follow(other) }
    }

    /// Resolves with a foreign promise-like `then` function (A+ 2.3.3): the first callback call wins, a throw after
    /// one is ignored, a throw before any rejects. `resolve` receives the promise's own resolver functions.
    func assimilate(
        _ then: (
            _ resolve: @escaping @Sendable (Step<Value>) -> Void, _ reject: @escaping @Sendable (any Error) -> Void
        )
            throws -> Void
    ) {
        guard claim() else { return }
        let first = OnceFlag()
        let once: @Sendable () -> Bool = { first.claim() }
        do {
            try then(
                { step in
                    guard once() else { return }
                    switch step {
                    case .value(let value): self.settle(.success(value))
                    case .promise(let other): self.follow(other)
                    }
                },
                { error in if once() { self.settle(.failure(error)) } })
        } catch {
            if once() { settle(.failure(error)) }
        }
    }

    private func claim() -> Bool {
        resolved.withLock { resolved in
            let first = !resolved
            resolved = true
            return first
        }
    }

    private func follow(_ other: ReferencePromise<Value>) {
        if other === self {
            settle(.failure(ReferencePromiseError.resolvedWithItself))
            return
        }
        other.subscribe(
            Callback(queue: .global(), child: self) { result, child in
                child.settle(result)
            })
    }

    private func settle(_ result: Result<Value, any Error>) {
        state.withLock { state in
            guard case .pending(let callbacks) = state else { return }
            state = .settled(result)
            for callback in callbacks { Self.dispatch(callback, result) }
        }
    }

    private func subscribe(_ callback: Callback) {
        state.withLock { state in
            switch state {
            case .pending(var callbacks):
                state = .pending([])  // keeps `callbacks` uniquely referenced while appending
                callbacks.append(callback)
                state = .pending(callbacks)
            case .settled(let result):
                Self.dispatch(callback, result)
            }
        }
    }

    private static func dispatch(_ callback: Callback, _ result: Result<Value, any Error>) {
        callback.queue.async { callback.run(result, callback.child) }
    }

    // MARK: then

    /// Registers handlers; `queue` nil means a global queue. A nil handler passes the value or error on.
    func then(
        on queue: DispatchQueue? = nil, _ onFulfilled: (@Sendable (Value) throws -> Step<Value>)?,
        _ onRejected: (@Sendable (any Error) throws -> Step<Value>)? = nil
    ) -> ReferencePromise<Value> {
        let derived = ReferencePromise<Value>()
        subscribe(
            Callback(queue: queue ?? .global(), child: derived) { result, child in
                let derived = child
                do {
                    let step: Step<Value>
                    switch result {
                    case .success(let value):
                        guard let onFulfilled else {
                            derived.fulfill(value)  // no handler: pass the value on (A+ 2.2.7.3)
                            return
                        }
                        step = try onFulfilled(value)
                    case .failure(let error):
                        guard let onRejected else {
                            derived.reject(error)
                            return
                        }
                        step = try onRejected(error)
                    }
                    switch step {
                    case .value(let value): derived.fulfill(value)
                    case .promise(let other): derived.adopt(other)
                    }
                } catch {
                    derived.reject(error)
                }
            })
        return derived
    }
}

extension ReferencePromise {
    /// Empties the callback list of a pending promise, returning the promises it derived.
    private func detachChildren() -> [ReferencePromise] {
        state.withLock { state in
            guard case .pending(let callbacks) = state else { return [] }
            state = .pending([])
            return callbacks.map(\.child)
        }
    }
}

/// A flag claimed by the first caller only.
final class OnceFlag: Sendable {
    private let flag = Locked(false)

    func claim() -> Bool {
        flag.withLock { claimed in
            let first = !claimed
            claimed = true
            return first
        }
    }
}
