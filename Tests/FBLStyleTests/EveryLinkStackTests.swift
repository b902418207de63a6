import Dispatch
import FBLStyle
import Foundation
import TestSupport
import Testing

/// Long chains of every chaining operator, with each outcome at the root, on a serial and a concurrent queue, settled
/// before or after the chain is built or never: each completes (or is freed) on a 512 KiB thread.
///
/// Every operator's block runs on its queue, a rejection that passes through `then` included, so no link settles the
/// next one on the settling thread's stack; these chains pin that, operator by operator. Each has ``length`` links, a
/// million with `PROMISES_STRESS=1`.
@Suite("Every operator on a small stack", .offThePool, .serialized)
struct EveryLinkStackTests {
    /// ``TestEnvironment/smallStackChainLength`` links.
    static let length = TestEnvironment.smallStackChainLength

    /// One operator, each keeping the outcome it receives.
    enum Link: String, CaseIterable, Sendable {
        /// `then` returning a value, returning a promise, and returning nothing.
        case then, thenPromise, thenVoid
        /// `recover` returning a promise, and returning a value.
        case recover, recoverValue
        case `catch`, always, validate
    }

    /// How the root settles.
    enum Root: String, CaseIterable, Sendable {
        case fulfilled, rejected
    }

    /// Where the blocks run. The default, `DispatchQueue.promises`, is the main queue, which nothing serves in a test
    /// process, and every block hops to its queue: only dropped chains are built with it.
    enum Queue: String, CaseIterable, Sendable {
        case serial, concurrent, conventionalDefault

        var queue: DispatchQueue {
            switch self {
            case .serial: DispatchQueue(label: "EveryLinkStackTests")
            case .concurrent: DispatchQueue.global()
            case .conventionalDefault: DispatchQueue.promises
            }
        }
    }

    typealias Combination = ChainCombination<Link, Root, Queue>

    static let combinations = Combination.all(
        links: Link.allCases, places: Queue.allCases, roots: { _ in Root.allCases },
        keep: { $0.place != .conventionalDefault || $0.timing == .never })

    @Test(arguments: combinations)
    func chainCompletesOnASmallStack(_ combination: Combination) async {
        let expected: String
        switch (combination.timing, combination.root) {
        case (.never, _): expected = SmallStackChain.freed
        case (_, .fulfilled): expected = "fulfilled 7"
        case (_, .rejected): expected = "rejected 7"
        }
        let end = await SmallStackThread.run {
            let queue = combination.place.queue
            return SmallStackChain.run(
                combination.timing, length: Self.length,
                root: {
                    let root = Promise<Int>.pending()
                    return (root, { Self.settle(root, combination.root) })
                },
                link: { Self.link($0, combination.link, queue) }, read: Self.read)
        }
        #expect(end == expected)
    }

    static func settle(_ root: Promise<Int>, _ outcome: Root) {
        switch outcome {
        case .fulfilled: root.fulfill(7)
        case .rejected: root.reject(TestError(code: 7))
        }
    }

    /// Waits for the last promise without serving the main queue, and says how it settled.
    static func read(_ tail: Promise<Int>) -> String {
        let settled = DispatchSemaphore(value: 0)
        tail.always(on: .global()) { settled.signal() }
        guard settled.wait(timeout: .now() + TestEnvironment.hangGuard) == .success else { return "pending" }
        if let value = tail.value { return "fulfilled \(value)" }
        if let error = tail.error as? TestError { return "rejected \(error.code)" }
        return "rejected with \(String(describing: tail.error))"
    }

    /// One link made with the operator asked for, keeping the outcome.
    static func link(_ promise: Promise<Int>, _ kind: Link, _ queue: DispatchQueue) -> Promise<Int> {
        switch kind {
        case .then: promise.then(on: queue) { (value: Int) -> Int in value }
        case .thenPromise: promise.then(on: queue) { (value: Int) -> Promise<Int> in Promise(value) }
        case .thenVoid: promise.then(on: queue) { (_: Int) -> Void in }
        case .recover: promise.recover(on: queue) { (error: any Error) -> Promise<Int> in Promise(error) }
        case .recoverValue: promise.recover(on: queue) { (error: any Error) -> Int in throw error }
        case .catch: promise.catch(on: queue) { _ in }
        case .always: promise.always(on: queue) {}
        case .validate: promise.validate(on: queue) { _ in true }
        }
    }
}
