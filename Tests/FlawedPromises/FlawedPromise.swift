// Deliberately broken promises, each wrong in exactly one way, to show that the suite has teeth.
//
// `FlawedPromise` is the reference mechanism cut down to what the suite's core clauses need (no thenables, no
// combinators), with one `Flaw` switched on. None of the flaws is a data race: the three racy ones lose updates through
// a check-then-act split across two critical sections, which the thread sanitizer rightly does not flag.
import Dispatch
import Foundation
import PromiseConformance
import TestSupport

/// The single thing a ``FlawedPromise`` gets wrong.
public enum Flaw: String, CaseIterable, Sendable, Codable {
    /// Settling runs every handler registered so far twice.
    case callsHandlerTwice
    /// `then` on a settled promise with no queue runs the handler at once, before returning.
    case synchronousHandlers
    /// `then` on a settled promise drops the handler.
    case dropsLateHandlers
    /// Settling a settled promise overwrites its value (handlers registered later see the second one).
    case secondResolutionWins
    /// Settling a settled promise settles it again: the handlers registered before the first settlement run again, with
    /// the new outcome, each time (a handler that settles its own promise never stops running).
    case settlesAgain
    /// A rejection passing through a `then` without onRejected comes out as a fulfilment.
    case rejectionBecomesFulfilment
    /// A promise holds a strong reference to itself, forever.
    case retainCycle
    /// The resolver checks "pending" and settles in two steps, so racing resolvers both settle.
    case racyResolution
    /// The resolver checks "pending" in one critical section and settles in the next, with nothing between them but
    /// an unlock and a lock (unless ``FlawedAdapter/window`` asks for more), so that resolvers racing on different
    /// cores both settle: the smallest check-then-act race a promise can have, the suite's calibrated race.
    case splitResolution
    /// A `then` on a pending promise that meets another `then` in progress puts its handler first, so handlers registered
    /// from racing threads run out of their threads' order (no handler is lost).
    case racyRegistration
    /// Dropping an unsettled chain frees it recursively, one stack frame per link: a long chain overflows the stack
    /// and the process dies of SIGSEGV (what `swift.deepChain`'s "an unsettled chain dropped" catches).
    case recursiveRelease
}

/// A promise with one ``Flaw``: the reference mechanism cut down to what the core clauses need.
public final class FlawedPromise: @unchecked Sendable {
    private struct Callback: Sendable {
        let queue: DispatchQueue?
        let child: FlawedPromise
        let run: @Sendable (Result<Sentinel, any Error>, FlawedPromise) -> Void

        func dispatch(_ result: Result<Sentinel, any Error>) {
            (queue ?? .global()).async { run(result, child) }
        }
    }

    private enum State {
        case pending([Callback])
        case settled(Result<Sentinel, any Error>)
    }

    let flaw: Flaw
    /// How many no-op steps ``Flaw/splitResolution``'s resolver takes between its check and its act.
    let window: Int
    private let state = Locked<State>(.pending([]))
    private let cycle = Locked<RetainCycleFlaw?>(nil)
    /// How many `then`s are in progress (used by ``Flaw/racyRegistration`` only).
    private let registering = Locked(0)
    /// The handlers registered before the first settlement (kept by ``Flaw/settlesAgain`` only).
    private let settledCallbacks = Locked<[Callback]>([])

    init(_ flaw: Flaw, window: Int = 0) {
        self.flaw = flaw
        self.window = window
        if flaw == .retainCycle { cycle.withLock { $0 = RetainCycleFlaw(self) } }
    }

    /// A promise created settled, as libraries make them (`Promise(value:)`): no resolver, so nothing to race.
    convenience init(_ flaw: Flaw, settled result: Result<Sentinel, any Error>) {
        self.init(flaw)
        state.withLock { $0 = .settled(result) }
    }

    deinit {
        guard flaw != .recursiveRelease else { return }  // the callbacks, and their children, go with the state
        var links = detachChildren()
        while var link = links.popLast() {
            if isKnownUniquelyReferenced(&link) { links += link.detachChildren() }
        }
    }

    private func detachChildren() -> [FlawedPromise] {
        let kept = settledCallbacks.withLock { kept in
            defer { kept = [] }
            return kept.map(\.child)
        }
        return kept
            + state.withLock { state in
                guard case .pending(let callbacks) = state else { return [] }
                state = .pending([])
                return callbacks.map(\.child)
            }
    }

    /// The resolver functions handed out by `pending()`.
    func resolve(_ result: Result<Sentinel, any Error>) {
        switch flaw {
        case .racyResolution:
            guard pendingCallbacks() != nil else { return }
            // Widens the window between the check and the act. Only resolvers pay for it (settled promises are made
            // settled), so a busy machine, where each yield can cost a time slice, slows the race clause alone.
            sched_yield()
        case .splitResolution:
            guard pendingCallbacks() != nil else { return }
            if window > 0 { Self.spin(window) }
        default:
            return settle(result)
        }
        state.withLock { state in
            if case .pending(let callbacks) = state {
                for callback in callbacks { callback.dispatch(result) }
            }
            state = .settled(result)  // overwrites whatever a racing resolver stored meanwhile
        }
    }

    func settle(_ result: Result<Sentinel, any Error>) {
        state.withLock { state in
            switch state {
            case .pending(let callbacks):
                state = .settled(result)
                if flaw == .settlesAgain { settledCallbacks.withLock { $0 = callbacks } }
                for callback in callbacks {
                    callback.dispatch(result)
                    if flaw == .callsHandlerTwice { callback.dispatch(result) }
                }
            case .settled:
                if flaw == .secondResolutionWins { state = .settled(result) }
                if flaw == .settlesAgain {
                    state = .settled(result)
                    for callback in settledCallbacks.withLock({ $0 }) { callback.dispatch(result) }
                }
            }
        }
    }

    func adopt(_ other: FlawedPromise) {
        if other === self { return settle(.failure(CancellationError())) }
        other.subscribe(Callback(queue: nil, child: self) { result, child in child.settle(result) })
    }

    private func subscribe(_ callback: Callback) {
        if flaw == .racyRegistration, registerFirstIfRacing(callback) { return }
        let runNow = state.withLock { state -> Result<Sentinel, any Error>? in
            switch state {
            case .pending(var callbacks):
                state = .pending([])
                callbacks.append(callback)
                state = .pending(callbacks)
                return nil
            case .settled(let result):
                switch flaw {
                case .dropsLateHandlers: return nil
                case .synchronousHandlers where callback.queue == nil: return result
                default:
                    callback.dispatch(result)
                    return nil
                }
            }
        }
        if let runNow { callback.run(runNow, callback.child) }
    }

    /// With ``Flaw/racyRegistration``: when another `then` is in progress, puts `callback` first in the pending list and
    /// returns true; otherwise (or once settled) returns false and the caller registers it as usual.
    ///
    /// Only registrations that overlap in time collide, and nothing orders those, so a clause that does not make
    /// registrations race sees nothing wrong.
    private func registerFirstIfRacing(_ callback: Callback) -> Bool {
        let collided = registering.withLock { count in
            defer { count += 1 }
            return count > 0
        }
        defer { registering.withLock { $0 -= 1 } }
        // Widens the window in which another registration meets this one, as `resolve` does, but only on a promise that
        // has a handler already: a yield in every registration would make the 100,000-link chains of swift.deepChain,
        // one handler per promise, cost minutes on a busy machine.
        if pendingCallbacks()?.isEmpty == false { sched_yield() }
        guard collided else { return false }
        return state.withLock { state in
            guard case .pending(let callbacks) = state else { return false }
            state = .pending([callback] + callbacks)
            return true
        }
    }

    /// Takes `steps` no-op steps, each a call the optimizer cannot remove: the calibrated width of
    /// ``Flaw/splitResolution``'s window. The steps touch nothing shared, so the window holds no data race.
    public static func spin(_ steps: Int) {
        var count = 0
        for _ in 0..<steps { count = step(count) }
        if count != steps { preconditionFailure("a spin step lost count") }
    }

    /// One no-op step: `count + 1`, never inlined.
    @inline(never)
    private static func step(_ count: Int) -> Int { count + 1 }

    /// The handlers registered so far, or nil once settled.
    private func pendingCallbacks() -> [Callback]? {
        state.withLock { state in
            if case .pending(let callbacks) = state { return callbacks }
            return nil
        }
    }

    func then(
        on queue: DispatchQueue?, _ onFulfilled: (@Sendable (Sentinel) -> HandlerResult<FlawedPromise>)?,
        _ onRejected: (@Sendable (any Error) -> HandlerResult<FlawedPromise>)?
    ) -> FlawedPromise {
        let flaw = flaw
        let derived = FlawedPromise(flaw, window: window)
        subscribe(
            Callback(queue: queue, child: derived) { result, derived in
                let handlerResult: HandlerResult<FlawedPromise>
                switch result {
                case .success(let value):
                    guard let onFulfilled else { return derived.settle(.success(value)) }
                    handlerResult = onFulfilled(value)
                case .failure(let error):
                    guard let onRejected else {
                        return derived.settle(
                            flaw == .rejectionBecomesFulfilment ? .success(Sentinel(0)) : .failure(error))
                    }
                    handlerResult = onRejected(error)
                }
                switch handlerResult {
                case .fulfill(let value): derived.settle(.success(value))
                case .reject(let error): derived.settle(.failure(error))
                case .adopt(let other): derived.adopt(other)
                case .assimilate: preconditionFailure("FlawedPromise does not declare assimilation")
                }
            })
        return derived
    }
}

/// Plugs a ``FlawedPromise`` with one flaw into the suite. `Codable`, so that `Conformance.runIsolated` can run it in
/// a child process.
public struct FlawedAdapter: PromiseAdapter, Codable {
    /// The flaw of every promise the adapter makes.
    public let flaw: Flaw
    /// The deviations the adapter declares.
    public var deviations: [String: String]
    /// With ``Flaw/splitResolution``: how many no-op steps (``FlawedPromise/spin(_:)``) the resolver takes between its
    /// check and its act; 0, the calibrated flaw, for nothing but an unlock and a lock.
    public var window: Int

    /// An adapter for promises with `flaw`, declaring `deviations`; `window` widens ``Flaw/splitResolution``'s race.
    public init(flaw: Flaw, deviations: [String: String] = [:], window: Int = 0) {
        self.flaw = flaw
        self.deviations = deviations
        self.window = window
    }

    /// Handlers with no queue are sent to a global queue, which may run two at once.
    public var concurrentDefaultScheduling: String? {
        "a handler with no queue is sent to a global queue, which may run two handlers at once"
    }

    /// `Flawed(flaw)`, with the window when there is one: `Flawed(splitResolution, window 100)`.
    public var name: String { "Flawed(\(flaw.rawValue)\(window > 0 ? ", window \(window)" : ""))" }

    /// A pending flawed promise and its resolvers.
    public func pending() -> (
        promise: FlawedPromise, fulfill: @Sendable (Sentinel) -> Void, reject: @Sendable (any Error) -> Void
    ) {
        let promise = FlawedPromise(flaw, window: window)
        return (promise, { promise.resolve(.success($0)) }, { promise.resolve(.failure($0)) })
    }

    /// A promise made fulfilled.
    public func fulfilled(_ value: Sentinel) -> FlawedPromise { FlawedPromise(flaw, settled: .success(value)) }

    /// A promise made rejected.
    public func rejected(_ error: any Error) -> FlawedPromise { FlawedPromise(flaw, settled: .failure(error)) }

    /// The promise's `then`.
    public func then(
        _ promise: FlawedPromise, on queue: DispatchQueue?,
        onFulfilled: (@Sendable (Sentinel) -> HandlerResult<FlawedPromise>)?,
        onRejected: (@Sendable (any Error) -> HandlerResult<FlawedPromise>)?
    ) -> FlawedPromise {
        promise.then(on: queue, onFulfilled, onRejected)
    }
}

/// The strong reference through which a promise with the `retainCycle` flaw holds itself, forever.
///
/// An object of its own, so that the leak has an allocation of its own to name: `.ci/lsan.supp` suppresses it, and with
/// it the promise and all that the promise holds, in the address sanitizer's leak report.
final class RetainCycleFlaw: Sendable {
    let promise: FlawedPromise
    init(_ promise: FlawedPromise) { self.promise = promise }
}
