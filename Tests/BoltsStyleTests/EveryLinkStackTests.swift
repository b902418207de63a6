import BoltsStyle
import Foundation
import TestSupport
import Testing

/// Long chains of every kind of link, with every outcome at the root, on every executor, settled before or after the
/// chain is built or never: each completes (or is freed) on a 512 KiB thread.
///
/// A link that does not run its closure (an outcome passed through, a cancelled token) settles the next task as
/// surely as one that does, and a chain of them must run as a loop too. On a 512 KiB stack a recursion per link
/// overflows within about 2,000 links in a debug build and 3,500 in a release build, so each chain here is far past
/// that: ``length`` links, a million with `PROMISES_STRESS=1`. ``StackDepthTests`` keeps its million-link chains of
/// the common forms in every run.
@Suite("Every link kind on a small stack", .offThePool, .serialized)
struct EveryLinkStackTests {
    /// 20,000 links, or ``TestEnvironment/longChainLength`` with `PROMISES_STRESS=1`.
    static let length = TestEnvironment.isStress ? TestEnvironment.longChainLength : 20_000

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

    /// When the root completes.
    enum Timing: String, CaseIterable, Sendable {
        case beforeTheChainIsBuilt, afterTheChainIsBuilt
        /// Never: the pending chain is dropped.
        case never
    }

    /// The executors, each as a continuation meets it.
    enum Executor: String, CaseIterable, Sendable {
        case `default`, immediate, queue, operationQueue, closure, escapingClosureCalledAtOnce, mainThread

        /// `.mainThread` from another thread hops to the main queue, which nothing serves in a test process: only
        /// links that run no closure (outcomes passed through, cancelled tokens) and dropped chains are run on it.
        var runsClosuresHere: Bool { self != .mainThread }

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

    /// One chain: a link kind, a root, a timing and an executor.
    struct Combination: Sendable, CustomTestStringConvertible {
        let link: Link
        let root: Root
        let timing: Timing
        let executor: Executor

        var testDescription: String {
            "\(link.rawValue), \(root.rawValue) root, \(timing.rawValue), .\(executor.rawValue)"
        }

        /// Whether every link runs its closure for this root (otherwise every link passes the outcome through).
        var linksRunClosures: Bool {
            switch (root, link) {
            case (.tokenCancelled, _): false
            case (.success, .continueOnErrorWith), (.success, .continueOnErrorWithTask),
                (.success, .continueOnErrorWithOtherType):
                false
            case (.error, .continueOnSuccessWith), (.error, .continueOnSuccessWithTask):
                false
            case (.cancelled, .continueWith), (.cancelled, .continueWithTask): true
            case (.cancelled, _): false
            default: true
            }
        }
    }

    static let combinations: [Combination] = Link.allCases.flatMap { link in
        Executor.allCases.flatMap { executor in
            // A chain never completed is the same whatever its root would have been.
            [Combination(link: link, root: .success, timing: .never, executor: executor)]
                + Root.allCases.flatMap { root in
                    [Timing.beforeTheChainIsBuilt, .afterTheChainIsBuilt].map {
                        Combination(link: link, root: root, timing: $0, executor: executor)
                    }
                }
        }
    }.filter { $0.executor.runsClosuresHere || $0.timing == .never || !$0.linksRunClosures }

    /// What the last task of a completed chain must show.
    enum Final: Equatable, Sendable, CustomStringConvertible {
        case success(Int)
        case error(Int)
        case cancelled, pending, freed, stillAlive

        var description: String {
            switch self {
            case .success(let value): "success(\(value))"
            case .error(let code): "error(\(code))"
            case .cancelled: "cancelled"
            case .pending: "pending"
            case .freed: "freed"
            case .stillAlive: "still alive"
            }
        }

        init(_ task: BFTask<Int>) {
            if let value = task.result {
                self = .success(value)
            } else if let error = task.error as? TestError {
                self = .error(error.code)
            } else if task.cancelled {
                self = .cancelled
            } else {
                self = .pending
            }
        }
    }

    @Test(arguments: combinations)
    func chainCompletesOnASmallStack(_ combination: Combination) {
        let expected: Final
        switch (combination.timing, combination.root) {
        case (.never, _): expected = .freed
        case (_, .success): expected = .success(7)
        case (_, .error): expected = .error(7)
        case (_, .cancelled), (_, .tokenCancelled): expected = .cancelled
        }
        let final = SmallStackThread.run { Self.runChain(combination) }
        #expect(final == expected)
    }

    /// Builds, settles (or not) and checks one chain, on the calling (small-stack) thread.
    static func runChain(_ combination: Combination) -> Final {
        let executor = combination.executor.make()
        let tokenSource = BFCancellationTokenSource()
        let token = combination.root == .tokenCancelled ? tokenSource.token : nil
        weak var weakLast: BFTask<Int>?
        let final: Final = {
            let source = BFTaskCompletionSource<Int>()
            if combination.timing == .beforeTheChainIsBuilt { complete(source, combination.root, tokenSource) }
            var task = source.task
            for _ in 0..<length {
                task = link(task, combination.link, executor, token)
            }
            weakLast = task
            switch combination.timing {
            case .never:
                return .pending  // dropped on return: checked below
            case .afterTheChainIsBuilt:
                complete(source, combination.root, tokenSource)
            case .beforeTheChainIsBuilt:
                break
            }
            guard task.waitUntilCompleted(timeout: TestEnvironment.hangGuard) else { return .pending }
            return Final(task)
        }()
        if combination.timing == .never { return weakLast == nil ? .freed : .stillAlive }
        return final
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
