import Dispatch
import Foundation
import PromiseKitStyle
import TestSupport
import Testing

/// Long chains of every chain method, with every outcome at the root, on every queue form, settled before or after
/// the chain is built or never: each completes (or is freed) on a 512 KiB thread.
///
/// A handler that passes an outcome on (a rejection reaching `map`, a value reaching `recover`) seals the next promise
/// from inside the drain that runs it, which the thread's trampoline counts like any other handler: these chains pin
/// that, method by method. On a 512 KiB stack a recursion per link overflows within a few hundred links; each chain
/// here has ``length``, a million with `PROMISES_STRESS=1`.
@Suite("Every chain method on a small stack", .offThePool, .serialized)
struct EveryLinkStackTests {
    /// ``TestEnvironment/smallStackChainLength`` links.
    static let length = TestEnvironment.smallStackChainLength

    /// One chain method, each keeping the outcome it receives.
    enum Link: String, CaseIterable, Sendable {
        case then, map, compactMap, get, tap, recover, recoverAllErrors, ensure, ensureThen
        /// `done`, then `map(on: nil) { 7 }` back to a promise of the value.
        case done
        /// `Guarantee`'s own `then`, `map`, `done` (then `map`) and `get`: a guarantee has no rejection to pass on.
        case guaranteeThen, guaranteeMap, guaranteeDone, guaranteeGet

        var isGuarantee: Bool { rawValue.hasPrefix("guarantee") }
    }

    /// How the root settles.
    enum Root: String, CaseIterable, Sendable {
        case fulfilled, rejected
        /// Rejected with `PMKError.cancelled`, which `recover`'s default policy passes on.
        case cancelled
    }

    /// Where the handlers run.
    enum Queue: String, CaseIterable, Sendable {
        /// `on: nil`: inline, on the settling thread.
        case inline
        /// A serial queue.
        case serial
        /// The default, `conf.Q` (the main queue, which nothing serves in a test process): only chains whose handlers
        /// all pass the outcome on without hopping, and dropped chains, are run with it.
        case conventionalDefault

        var queue: DispatchQueue? {
            switch self {
            case .inline: nil
            case .serial: DispatchQueue(label: "EveryLinkStackTests")
            case .conventionalDefault: DispatchQueue.main
            }
        }
    }

    typealias Combination = ChainCombination<Link, Root, Queue>

    /// Whether every handler of the chain runs on its queue (otherwise each passes the outcome on at once).
    static func handlersHop(_ combination: Combination) -> Bool {
        switch (combination.link, combination.root) {
        case (.recover, .fulfilled), (.recover, .cancelled), (.recoverAllErrors, .fulfilled): false
        case (.then, .fulfilled), (.map, .fulfilled), (.compactMap, .fulfilled), (.get, .fulfilled),
            (.done, .fulfilled):
            true
        case (.then, _), (.map, _), (.compactMap, _), (.get, _), (.done, _): false
        default: true
        }
    }

    static let combinations = Combination.all(
        links: Link.allCases, places: Queue.allCases, roots: { $0.isGuarantee ? [.fulfilled] : Root.allCases },
        keep: { $0.place != .conventionalDefault || $0.timing == .never || !handlersHop($0) })

    @Test(arguments: combinations)
    func chainCompletesOnASmallStack(_ combination: Combination) async {
        let expected: String
        switch (combination.timing, combination.root) {
        case (.never, _): expected = SmallStackChain.freed
        case (_, .fulfilled): expected = "fulfilled 7"
        case (_, .rejected): expected = "rejected 7"
        case (_, .cancelled): expected = "cancelled"
        }
        let end = await SmallStackThread.run {
            let queue = combination.place.queue
            if combination.link.isGuarantee {
                return SmallStackChain.run(
                    combination.timing, length: Self.length,
                    root: {
                        let source = RootSource()
                        let root = Promise(source).recover(on: nil) { _ in Guarantee.value(-1) }
                        return (root, { source.settle(.fulfilled(7)) })
                    },
                    link: { Self.guaranteeLink($0, combination.link, queue) }, read: { Self.read(Promise($0)) })
            }
            return SmallStackChain.run(
                combination.timing, length: Self.length,
                root: {
                    let source = RootSource()
                    return (Promise(source), { source.settle(Self.outcome(combination.root)) })
                },
                link: { Self.link($0, combination.link, queue) }, read: Self.read)
        }
        #expect(end == expected)
    }

    /// The root's source: a thenable settled by the test, made a promise with `Promise(_:)` as PromiseKit makes its
    /// own derived promises. Dropped pending, such a promise logs nothing (one from `Promise.pending()` would log
    /// `pendingPromiseDeallocated`, which only a test holding the process-wide log lock may catch), and nothing here
    /// keeps it or the chain on it alive but the test.
    final class RootSource: Thenable, @unchecked Sendable {
        private let lock = NSLock()
        private var outcome: Result<Int>?
        private var waiting: [(Result<Int>) -> Void] = []

        func pipe(to: @escaping (Result<Int>) -> Void) {
            lock.lock()
            guard let outcome else {
                waiting.append(to)
                lock.unlock()
                return
            }
            lock.unlock()
            to(outcome)
        }

        var result: Result<Int>? { lock.withLock { outcome } }

        func settle(_ newOutcome: Result<Int>) {
            let toCall = lock.withLock {
                outcome = newOutcome
                defer { waiting = [] }
                return waiting
            }
            for callback in toCall { callback(newOutcome) }
        }
    }

    static func outcome(_ root: Root) -> Result<Int> {
        switch root {
        case .fulfilled: .fulfilled(7)
        case .rejected: .rejected(TestError(code: 7))
        case .cancelled: .rejected(PMKError.cancelled)
        }
    }

    /// Waits for the last promise without serving any queue, and says how it settled.
    static func read(_ tail: Promise<Int>) -> String {
        let settled = DispatchSemaphore(value: 0)
        tail.pipe { _ in settled.signal() }
        guard settled.wait(timeout: .now() + TestEnvironment.hangGuard) == .success else { return "pending" }
        switch tail.result {
        case .fulfilled(let value): return "fulfilled \(value)"
        case .rejected(let error as TestError): return "rejected \(error.code)"
        case .rejected(let error) where error.isCancelled: return "cancelled"
        case .rejected(let error): return "rejected with \(error)"
        case nil: return "pending"
        }
    }

    /// One link made with the method asked for, keeping the outcome.
    static func link(_ promise: Promise<Int>, _ kind: Link, _ queue: DispatchQueue?) -> Promise<Int> {
        switch kind {
        case .then: promise.then(on: queue) { Promise.value($0) }
        case .map: promise.map(on: queue) { $0 }
        case .compactMap: promise.compactMap(on: queue) { Optional($0) }
        case .get: promise.get(on: queue) { _ in }
        case .tap: promise.tap(on: queue) { _ in }
        case .done: promise.done(on: queue) { _ in }.map(on: nil) { 7 }
        case .recover: promise.recover(on: queue) { (error: any Error) -> Promise<Int> in throw error }
        case .recoverAllErrors:
            promise.recover(on: queue, policy: .allErrors) { (error: any Error) -> Promise<Int> in throw error }
        case .ensure: promise.ensure(on: queue) {}
        case .ensureThen: promise.ensureThen(on: queue) { Guarantee.value(()) }
        case .guaranteeThen, .guaranteeMap, .guaranteeDone, .guaranteeGet:
            preconditionFailure("a guarantee's method on a promise")
        }
    }

    /// One link made with a guarantee's method.
    static func guaranteeLink(_ guarantee: Guarantee<Int>, _ kind: Link, _ queue: DispatchQueue?) -> Guarantee<Int> {
        switch kind {
        case .guaranteeThen: guarantee.then(on: queue) { Guarantee.value($0) }
        case .guaranteeMap: guarantee.map(on: queue) { $0 }
        case .guaranteeDone: guarantee.done(on: queue) { _ in }.map(on: nil) { 7 }
        case .guaranteeGet: guarantee.get(on: queue) { _ in }
        default: preconditionFailure("a promise's method on a guarantee")
        }
    }
}
