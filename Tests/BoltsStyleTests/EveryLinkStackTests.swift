import BoltsStyle
import Foundation
import TestSupport
import Testing

/// Long chains of every kind of link, with every outcome at the root, on every executor, settled before or after the
/// chain is built or never: each completes (or is freed) on a 512 KiB thread.
///
/// A link that does not run its closure (an outcome passed through, a cancelled token) settles the next task as
/// surely as one that does, and a chain of them must run as a loop too. A recursion per link takes about 1.5 KiB of
/// stack a link in a debug build, so a 512 KiB stack overflows within a few hundred links; each chain here is far past
/// that (``length``, a million with `PROMISES_STRESS=1`). ``StackDepthTests`` keeps its million-link chains of the common forms in every run.
@Suite("Every link kind on a small stack", .offThePool, .serialized)
struct EveryLinkStackTests {
    /// ``TestEnvironment/smallStackChainLength`` links.
    static let length = TestEnvironment.smallStackChainLength

    /// One way of writing a link, each keeping the outcome it receives.
    enum Link: String, CaseIterable, Sendable {
        case continueWith, continueWithTask, continueOnSuccessWith, continueOnSuccessWithTask
        case continueOnErrorWith, continueOnErrorWithTask
        /// `continueOnErrorWith { (error: OtherError) in … }`: an error of another type passes through.
        case continueOnErrorWithOtherType
    }

    /// How the root completes.
    enum Root: String, CaseIterable, Sendable {
        case success, error, cancelled
        /// The root succeeds, and every link's cancellation token is cancelled: each link cancels its task.
        case tokenCancelled
    }

    /// The executors, each as a continuation meets it.
    enum Executor: String, CaseIterable, Sendable {
        case `default`, immediate, queue, operationQueue, closure, escapingClosureCalledAtOnce, mainThread

        func make() -> BFExecutor {
            switch self {
            case .default: .default
            case .immediate: .immediate
            case .queue: .queue(DispatchQueue(label: "EveryLinkStackTests"))
            case .operationQueue: .operationQueue(Self.serialOperationQueue())
            case .closure: .closure { $0() }
            case .escapingClosureCalledAtOnce: .escapingClosure { $0() }
            case .mainThread: .mainThread
            }
        }

        private static func serialOperationQueue() -> OperationQueue {
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = 1
            return queue
        }
    }

    typealias Combination = ChainCombination<Link, Root, Executor>

    /// Whether every link of the chain runs its closure (otherwise each passes the outcome on).
    static func linksRunClosures(_ combination: Combination) -> Bool {
        switch (combination.root, combination.link) {
        case (.tokenCancelled, _): false
        case (.success, .continueOnErrorWith), (.success, .continueOnErrorWithTask),
            (.success, .continueOnErrorWithOtherType):
            false
        case (.error, .continueOnSuccessWith), (.error, .continueOnSuccessWithTask): false
        case (.cancelled, .continueWith), (.cancelled, .continueWithTask): true
        case (.cancelled, _): false
        default: true
        }
    }

    /// `.mainThread` from another thread hops to the main queue, which nothing serves in a test process: with it,
    /// only chains whose links run no closure, and dropped chains, are built.
    static let combinations = Combination.all(
        links: Link.allCases, places: Executor.allCases, roots: { _ in Root.allCases },
        keep: { $0.place != .mainThread || $0.timing == .never || !linksRunClosures($0) })

    @Test(arguments: combinations)
    func chainCompletesOnASmallStack(_ combination: Combination) async {
        let expected: String
        switch (combination.timing, combination.root) {
        case (.never, _): expected = SmallStackChain.freed
        case (_, .success): expected = "success 7"
        case (_, .error): expected = "error 7"
        case (_, .cancelled), (_, .tokenCancelled): expected = "cancelled"
        }
        let end = await SmallStackThread.run {
            let executor = combination.place.make()
            let tokens = BFCancellationTokenSource()
            let token = combination.root == .tokenCancelled ? tokens.token : nil
            return SmallStackChain.run(
                combination.timing, length: Self.length,
                root: {
                    let source = BFTaskCompletionSource<Int>()
                    return (source.task, { Self.complete(source, combination.root, tokens) })
                },
                link: { Self.link($0, combination.link, executor, token) }, read: Self.read)
        }
        #expect(end == expected)
    }

    static func complete(_ source: BFTaskCompletionSource<Int>, _ root: Root, _ tokens: BFCancellationTokenSource) {
        switch root {
        case .success:
            source.set(result: 7)
        case .error:
            source.set(error: TestError(code: 7))
        case .cancelled:
            source.cancel()
        case .tokenCancelled:
            tokens.cancel()
            source.set(result: 7)
        }
    }

    /// Waits for the last task and says how it completed.
    static func read(_ task: BFTask<Int>) -> String {
        guard task.waitUntilCompleted(timeout: TestEnvironment.hangGuard) else { return "pending" }
        if let value = task.result { return "success \(value)" }
        if let error = task.error as? TestError { return "error \(error.code)" }
        return task.cancelled ? "cancelled" : "faulted with \(String(describing: task.error))"
    }

    /// One link of the kind asked for, keeping the outcome it receives.
    static func link(
        _ task: BFTask<Int>, _ kind: Link, _ executor: BFExecutor, _ token: BFCancellationToken?
    ) -> BFTask<Int> {
        switch kind {
        case .continueWith:
            task.continueWith(executor, cancellationToken: token) { completed in
                if let error = completed.error { throw error }
                if completed.cancelled { throw BFCancelledError() }
                return completed.result!
            }
        case .continueWithTask:
            task.continueWithTask(executor, cancellationToken: token) { $0 }
        case .continueOnSuccessWith:
            task.continueOnSuccessWith(executor, cancellationToken: token) { $0 }
        case .continueOnSuccessWithTask:
            task.continueOnSuccessWithTask(executor, cancellationToken: token) { BFTask($0) }
        case .continueOnErrorWith:
            task.continueOnErrorWith(executor, cancellationToken: token) { (error: any Error) -> Int in throw error }
        case .continueOnErrorWithTask:
            task.continueOnErrorWithTask(executor, cancellationToken: token) { (error: any Error) in
                BFTask(error: error)
            }
        case .continueOnErrorWithOtherType:
            task.continueOnErrorWith(executor, cancellationToken: token) { (_: OtherError) in -1 }
        }
    }
}
