import Foundation
import PromisePlumbing

/// Where and how a continuation's closure runs.
///
/// The cases match Bolts-Swift's `Executor`. Every continuation method takes one, `.default` unless
/// you say otherwise.
///
/// `BFExecutor` is `@unchecked Sendable`: like Bolts, the closures of `.closure` and
/// `.escapingClosure` are plain closures, called from whichever thread completes the task.
public enum BFExecutor: @unchecked Sendable {
    /// Runs the closure right away on the completing thread, unless this thread is already running
    /// too many `.default` continuations nested inside each other (Bolts-Swift's stack guard: the
    /// 21st nested one still runs inline, the 22nd hops; runs of other executors do not count); then
    /// it dispatches the closure to the global queue with the default quality of service.
    case `default`

    /// Runs the closure right away on the thread that completed the previous task.
    ///
    /// Nested completions do not grow the stack without bound: past 64 nested levels on one thread
    /// the closure is enqueued on that thread's trampoline and runs, still on that thread, as soon as
    /// the outermost continuation returns. A chain of a million `.immediate` continuations
    /// therefore runs as a loop.
    case immediate

    /// Runs the closure on the main thread: right away if already there (and not nested more than
    /// 64 levels deep), otherwise asynchronously on `DispatchQueue.main`.
    ///
    /// - Note: On Linux, `DispatchQueue.main` only runs its work while the main thread serves it:
    ///   call `dispatchMain()`, run a `RunLoop`, or use an `async` main (`@main` with
    ///   `static func main() async`). A command-line tool whose main thread blocks, for example in
    ///   ``BFTask/waitUntilCompleted()``, never runs `.mainThread` continuations.
    case mainThread

    /// Dispatches the closure asynchronously on the given dispatch queue.
    case queue(DispatchQueue)

    /// Adds the closure as an operation to the given operation queue.
    case operationQueue(OperationQueue)

    /// Passes the closure to the given function, which must call it before returning.
    case closure((BFBlock) -> Void)

    /// Passes the closure to the given function, which may keep it and call it later.
    case escapingClosure((@escaping BFBlock) -> Void)

    /// Runs `closure` according to this executor's strategy.
    public func execute(_ closure: @escaping BFBlock) {
        if let trampoline = inlineTrampoline() {
            trampoline.run(closure)
            return
        }
        switch self {
        case .immediate:
            BFTrampoline.current.enqueue(closure)
        case .closure(let run):
            run(closure)
        case .escapingClosure(let run):
            run(closure)
        default:
            // Bolts' closures are not `@Sendable`: as in Bolts, the caller vouches for what they capture, and the
            // queue runs this one once, after everything written before the hop. (The wrapper costs one allocation
            // more than a closure that is `@Sendable` already, as the continuations' are.)
            nonisolated(unsafe) let closure: () -> Void = closure
            hop { closure() }
        }
    }

    /// Hands `work` over for later: to a queue, an operation queue, the user's function, or, for `.immediate`, this
    /// thread's trampoline.
    ///
    /// Continuations hop through here with a closure that captures one object, which Dispatch receives as one block
    /// (one allocation).
    @usableFromInline
    func hop(_ work: @escaping @Sendable () -> Void) {
        switch self {
        case .default:
            DispatchQueue.global(qos: .default).async(execute: work)
        case .immediate:
            BFTrampoline.current.enqueue(work)
        case .mainThread:
            DispatchQueue.main.async(execute: work)
        case .queue(let queue):
            queue.async(execute: work)
        case .operationQueue(let queue):
            queue.addOperation(work)
        case .closure(let run):
            run(work)
        case .escapingClosure(let run):
            run(work)
        }
    }

    /// This thread's trampoline if the executor runs its work inline right now, `nil` otherwise: `.default` below
    /// Bolts-Swift's limit of its own nested runs (the handle then counts the run as one of them), `.immediate` below
    /// its own depth limit, `.mainThread` on the main thread below that one.
    ///
    /// Continuations use it to run inline without allocating an escaping closure.
    @inlinable
    func inlineTrampoline() -> BFInlineRun? {
        switch self {
        case .default:
            let trampoline = BFTrampoline.current
            guard trampoline.markedDepth < BFTrampoline.defaultDepthLimit else { return nil }
            return BFInlineRun(trampoline, isDefault: true)
        case .mainThread where !Thread.isMainThread:
            return nil
        case .immediate, .mainThread:
            let trampoline = BFTrampoline.current
            return trampoline.isAt(limit: BFTrampoline.immediateDepthLimit) ? nil : BFInlineRun(trampoline)
        default:
            return nil
        }
    }
}

extension BFExecutor: CustomStringConvertible, CustomDebugStringConvertible {
    /// A textual representation of the executor.
    public var description: String {
        switch self {
        case .default:
            return "Default Executor"
        case .immediate:
            return "Immediate Executor"
        case .mainThread:
            return "MainThread Executor"
        case .queue:
            return "Executor with dispatch_queue"
        case .operationQueue:
            return "Executor with NSOperationQueue"
        case .closure:
            return "Executor with custom closure"
        case .escapingClosure:
            return "Executor with custom escaping closure"
        }
    }

    /// A textual representation of the executor for debugging: ``description``, then the queue or closure it
    /// wraps, as Bolts-Swift prints them.
    public var debugDescription: String {
        switch self {
        case .queue(let queue):
            return "\(description): \(queue)"
        case .operationQueue(let queue):
            return "\(description): \(queue)"
        case .closure(let closure):
            return "\(description): \(String(describing: closure))"
        case .escapingClosure(let closure):
            return "\(description): \(String(describing: closure))"
        default:
            return description
        }
    }
}
