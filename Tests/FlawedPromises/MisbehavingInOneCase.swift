// A promise that crashes the process, or hangs, in one case of a clause and behaves in the others: what the suite's
// tests use to check that a crash or a hang is named to its case and that the clause's other cases still run.
import Dispatch
import Foundation
import PromiseConformance

/// What a ``MisbehavingInOneCaseAdapter``'s promise does in the one case it misbehaves in.
///
/// The case is the one that settles a promise on the thread that made it, right after registering its handlers: in a
/// clause that runs its cases each way of settling (A+ 2.2.2.1, 2.2.3.1, ...), `immediately-fulfilled` or
/// `immediately-rejected`, the second of four. The cases before it make their promise settled, and those after it
/// settle it from another thread.
public enum OneCaseMisbehaviour: String, CaseIterable, Sendable, Codable {
    /// Traps (`fatalError`): the process dies of `SIGILL` (`SIGTRAP` on arm64), with the runtime's "Fatal error" on
    /// standard error.
    case crashesInImmediateCase
    /// Blocks the settling call until ``MisbehavingInOneCaseAdapter/releaseHungCalls()``: the case never returns.
    case hangsInImmediateCase
}

/// Plugs in a promise that crashes or hangs in one case (``OneCaseMisbehaviour``) and conforms in the others.
/// `Codable`, so that `Conformance.runIsolated` can run it in a child process.
///
/// The promise is a ``FlawedPromise`` whose flaw, a second resolution that wins, shows only in clauses that settle a
/// promise twice (the 2.1 clauses and `swift.race`); the clauses this adapter is meant for settle each promise once.
public struct MisbehavingInOneCaseAdapter: PromiseAdapter, Codable {
    /// What the promise does in its one case.
    public let misbehaviour: OneCaseMisbehaviour
    /// The deviations the adapter declares.
    public var deviations: [String: String]

    /// An adapter whose promises misbehave as `misbehaviour` says, declaring `deviations`.
    public init(_ misbehaviour: OneCaseMisbehaviour, deviations: [String: String] = [:]) {
        self.misbehaviour = misbehaviour
        self.deviations = deviations
    }

    private var base: FlawedAdapter { FlawedAdapter(flaw: .secondResolutionWins) }

    /// `Misbehaving(crashesInImmediateCase)`, say.
    public var name: String { "Misbehaving(\(misbehaviour.rawValue))" }

    /// A pending promise whose resolvers misbehave when called on the thread that made it.
    public func pending() -> (
        promise: FlawedPromise, fulfill: @Sendable (Sentinel) -> Void, reject: @Sendable (any Error) -> Void
    ) {
        let (promise, fulfill, reject) = base.pending()
        let maker = ObjectIdentifier(Thread.current)
        let misbehaviour = misbehaviour
        @Sendable func checked(_ settle: @escaping @Sendable () -> Void) {
            if ObjectIdentifier(Thread.current) == maker { Self.misbehave(misbehaviour) }
            settle()
        }
        return (promise, { value in checked { fulfill(value) } }, { error in checked { reject(error) } })
    }

    /// A promise made fulfilled (without a resolver, so without misbehaviour).
    public func fulfilled(_ value: Sentinel) -> FlawedPromise { base.fulfilled(value) }

    /// A promise made rejected.
    public func rejected(_ error: any Error) -> FlawedPromise { base.rejected(error) }

    /// The promise's `then`.
    public func then(
        _ promise: FlawedPromise, on queue: DispatchQueue?,
        onFulfilled: (@Sendable (Sentinel) -> HandlerResult<FlawedPromise>)?,
        onRejected: (@Sendable (any Error) -> HandlerResult<FlawedPromise>)?
    ) -> FlawedPromise {
        base.then(promise, on: queue, onFulfilled: onFulfilled, onRejected: onRejected)
    }

    private static func misbehave(_ misbehaviour: OneCaseMisbehaviour) {
        switch misbehaviour {
        case .crashesInImmediateCase:
            fatalError("MisbehavingInOneCase: a promise settled on the thread that made it")
        case .hangsInImmediateCase:
            hung.wait()
        }
    }

    /// Lets every call blocked so far by ``OneCaseMisbehaviour/hangsInImmediateCase`` return (calls that block later
    /// still block): what a test that ran such a promise in its own process does at its end.
    public static func releaseHungCalls() {
        hung.release()
    }

    private static let hung = Generations()
}

/// Blocks callers until the generation they started in is released.
private final class Generations: @unchecked Sendable {
    private let condition = NSCondition()
    private var generation = 0

    func wait() {
        condition.lock()
        let started = generation
        while generation == started { condition.wait() }
        condition.unlock()
    }

    func release() {
        condition.lock()
        generation += 1
        condition.broadcast()
        condition.unlock()
    }
}
