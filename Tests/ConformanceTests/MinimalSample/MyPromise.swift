// A complete, minimal promise written from scratch: the one the article "Testing your own promise type"
// (TestingYourPromise.md) shows a new user, with its adapter (MyPromiseAdapter.swift). The region between the guide
// markers is the article's code block, byte for byte (ArticleCodeTests checks it), and MyPromiseConformance runs every
// clause of the suite over it: it passes every one that applies to an adapter without capabilities.
// guide:begin my-promise
import Foundation

/// The error of a promise resolved with itself, which would otherwise wait for itself forever (A+ 2.3.1).
struct MyPromiseCycleError: Error {}

/// Where handlers with no queue run: one serial queue, so that they keep their `then` order (A+ 2.2.6).
let myPromiseQueue = DispatchQueue(label: "MyPromise")

/// A promise of a `Value`: pending until its first resolution, then fulfilled or rejected for good. `MyPromise()` is
/// a pending one. It is `@unchecked Sendable` because `lock` guards every `var`.
final class MyPromise<Value: Sendable>: @unchecked Sendable {
    /// What a promise is resolved with, and what a handler returns: a value, an error, or a promise to adopt.
    enum Resolution: Sendable {
        case fulfill(Value)
        case reject(any Error)
        case adopt(MyPromise)
    }

    /// What waits for the outcome: a block to schedule, and the promise it resolves (listed for `deinit`).
    private typealias Callback = (dependent: MyPromise, schedule: @Sendable (Result<Value, any Error>) -> Void)

    private let lock = NSLock()
    private var callbacks: [Callback] = []  // while pending
    private var outcome: Result<Value, any Error>?  // once settled
    private var resolved = false  // settled or adopting: later resolutions are ignored, the first one wins

    /// Frees a dropped pending chain link by link: a `deinit` that freed the next link, whose `deinit` freed the
    /// next, would nest once per link and overflow the stack of a long chain.
    deinit {
        var links = detach()
        while var link = links.popLast() {
            if isKnownUniquelyReferenced(&link) { links += link.detach() }  // its own deinit then has none to free
        }
    }

    /// Resolves the promise, unless it is resolved already (the first resolution wins). A promise that adopts
    /// another settles as that one settles (A+ 2.3.2); one that adopts itself is rejected (2.3.1).
    func resolve(_ resolution: Resolution) {
        var wasResolved = true
        lock.withLock { swap(&wasResolved, &resolved) }  // `resolved` is true from now on
        guard !wasResolved else { return }
        switch resolution {
        case .fulfill(let value): settle(.success(value))
        case .reject(let error): settle(.failure(error))
        case .adopt(let other) where other === self: settle(.failure(MyPromiseCycleError()))
        case .adopt(let other): other.register(self, on: .global()) { self.settle($0) }
        }
    }

    /// Registers handlers, run on `queue` (or `myPromiseQueue`), and returns their promise; a nil one passes it on.
    func then(
        on queue: DispatchQueue? = nil, _ onFulfilled: (@Sendable (Value) -> Resolution)?,
        _ onRejected: (@Sendable (any Error) -> Resolution)? = nil
    ) -> MyPromise {
        let derived = MyPromise()
        register(derived, on: queue ?? myPromiseQueue) { outcome in
            switch outcome {
            case .success(let value): derived.resolve(onFulfilled?(value) ?? .fulfill(value))
            case .failure(let error): derived.resolve(onRejected?(error) ?? .reject(error))
            }
        }
        return derived
    }

    /// Settles the promise and schedules what waits, under the lock, so that handlers registered from one thread
    /// run in their order even while another thread settles the promise.
    private func settle(_ result: Result<Value, any Error>) {
        lock.withLock {
            outcome = result
            for callback in callbacks { callback.schedule(result) }
            callbacks = []
        }
    }

    /// Runs `body`, which resolves `dependent`, on `queue` once the promise is settled; never inside this call.
    private func register(
        _ dependent: MyPromise, on queue: DispatchQueue, _ body: @escaping @Sendable (Result<Value, any Error>) -> Void
    ) {
        let callback: Callback = (dependent, { outcome in queue.async { body(outcome) } })
        lock.withLock { if let outcome { callback.schedule(outcome) } else { callbacks.append(callback) } }
    }

    /// Drops what waits, returning the promises it would have resolved.
    private func detach() -> [MyPromise] {
        lock.withLock {
            defer { callbacks = [] }
            return callbacks.map(\.dependent)
        }
    }
}
// guide:end my-promise
