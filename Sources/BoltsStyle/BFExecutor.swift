import Foundation

/// Where and how a continuation's closure runs.
///
/// The cases match Bolts-Swift's `Executor`. Every continuation method takes one, `.default` unless
/// you say otherwise.
///
/// `BFExecutor` is `@unchecked Sendable`: like Bolts, the closures of `.closure` and
/// `.escapingClosure` are plain closures, called from whichever thread completes the task.
public enum BFExecutor: @unchecked Sendable {
    /// Runs the closure right away on the completing thread, unless this thread is already running
    /// too many continuations nested inside each other (Bolts' stack guard, 20 levels); then it
    /// dispatches the closure to the global queue with the default quality of service.
    case `default`

    /// Runs the closure right away on the thread that completed the previous task.
    ///
    /// Nested completions do not grow the stack without bound: past 64 nested levels on one thread
    /// the closure is parked on that thread's trampoline and runs, still on that thread, as soon as
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
    case closure((() -> Void) -> Void)

    /// Passes the closure to the given function, which may keep it and call it later.
    case escapingClosure((@escaping () -> Void) -> Void)

    /// Runs `closure` according to this executor's strategy.
    public func execute(_ closure: @escaping () -> Void) {
        if let local = inlineThread() {
            BFThreadLocal.runInline(local, closure)
            return
        }
        switch self {
        case .default:
            BFExecutor.dispatch(closure, on: DispatchQueue.global(qos: .default))
        case .immediate:
            BFThreadLocal.park(BFThreadLocal.current, closure)
        case .mainThread:
            BFExecutor.dispatch(closure, on: DispatchQueue.main)
        case .queue(let queue):
            BFExecutor.dispatch(closure, on: queue)
        case .operationQueue(let queue):
            nonisolated(unsafe) let work = closure
            queue.addOperation { work() }
        case .closure(let run):
            run(closure)
        case .escapingClosure(let run):
            run(closure)
        }
    }

    /// Hands `closure` to `queue` as the block Dispatch runs: one allocation for the block. (A new closure around
    /// `closure`, which `async`'s `@Sendable` parameter would otherwise need, costs a context and a block.) Bolts'
    /// continuations are not `@Sendable`, so the block is retyped: the queue runs it once, and the task's lock
    /// ordered everything the closure captured before it was handed over.
    static func dispatch(_ closure: @escaping () -> Void, on queue: DispatchQueue) {
        let block = unsafeBitCast(
            closure as @convention(block) () -> Void, to: (@Sendable @convention(block) () -> Void).self)
        queue.async(execute: block)
    }

    /// This thread's state if the executor runs its work inline right now, `nil` otherwise.
    ///
    /// Continuations use it to run inline without allocating an escaping closure.
    @inlinable
    func inlineThread() -> UnsafeMutablePointer<BFThreadLocal>? {
        switch self {
        case .default:
            let local = BFThreadLocal.current
            return local.pointee.depth < BFThreadLocal.defaultDepthLimit ? local : nil
        case .immediate:
            let local = BFThreadLocal.current
            return local.pointee.depth < BFThreadLocal.immediateDepthLimit ? local : nil
        case .mainThread:
            guard Thread.isMainThread else { return nil }
            let local = BFThreadLocal.current
            return local.pointee.depth < BFThreadLocal.immediateDepthLimit ? local : nil
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
