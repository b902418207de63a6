// The core of PromiseBridge: one neutral outcome, read from any style and written into any style.
//
// The mechanism. Every conversion is "subscribe once to the source, settle a new target from the callback":
//
//     source ──(one callback, registered with the style's own API)──▶ Settlement ──▶ target
//
// A source reports its outcome once, through the one callback each style offers for it: a `continueWith` on the
// `.immediate` executor for a `BFTask`, `pipe(to:)` for PromiseKitStyle (runs inline, like `on: nil`), and for
// FBLStyle `then`/`catch` on a private concurrent queue (FBLStyle's inline observers are internal to it; its public
// blocks always hop to a queue, never here to the main queue). The callback turns that outcome into a `Settlement`
// and settles the target. An already settled source is read directly, so its conversion is settled on return.
// Nothing blocks, polls or touches `DispatchQueue.main`.
//
// Retention. The callback lives in the source and holds the target; the target holds nothing of the source. So a
// conversion never keeps its source alive, a settled source lets go of the callback, and a source that is dropped
// without settling releases the callback, and with it a target nobody else holds.
//
// Cancellation. Each style has its own notion; the bridge maps them onto one `Settlement.cancelled`:
//
//     leaving                   counts as cancelled                        entering: `.cancelled` becomes
//     BoltsStyle                the cancelled state                        the cancelled state
//     PromiseKitStyle           an error whose `isCancelled` is true       a rejection with `PMKError.cancelled`
//     FBLStyle                  an error whose `isCancelled` is true       a rejection with `CancellationError()`
//
// `isCancelled` is PromiseKitStyle's test (`PMKError.cancelled`, any `CancellableError` that says so,
// `CancellationError`, `URLError.cancelled`, `CocoaError.userCancelled`); the bridge makes `BFCancelledError` a
// `CancellableError`, so it counts too. A Bolts task that faulted with such an error counts as cancelled as well.
// Every other error crosses as the same instance. Since an error that crosses is never a cancellation, and a
// cancellation always arrives as the target's own, a chain of conversions keeps the outcome; a round trip ends in
// the state it started in (a cancellation that started as some other cancellation error, say `URLError.cancelled`,
// comes back as the style's own).
//
// Concurrency. Values are unconstrained (`T`, as in the styles); a value moves from the source's callback to the
// target inside these callbacks only, which the styles order with their locks.

import BoltsStyle
import Dispatch
import FBLStyle
import PromiseKitStyle

/// The outcome of a settled promise of any style, with cancellation told apart from failure.
enum Settlement<Value> {
    /// Fulfilled (succeeded) with a value.
    case value(Value)
    /// Rejected (faulted) with an error that is not a cancellation; it crosses as the same instance.
    case error(any Error)
    /// Cancelled, in whichever style's own notion.
    case cancelled

    /// Classifies a PromiseKitStyle result: a rejection whose error is a cancellation is `.cancelled`.
    init(_ result: PromiseKitStyle.Result<Value>) {
        switch result {
        case .fulfilled(let value): self = .value(value)
        case .rejected(let error): self = Settlement.failure(error)
        }
    }

    /// `.cancelled` for a cancellation error, `.error(error)` for any other.
    static func failure(_ error: any Error) -> Settlement {
        isCancellation(error) ? .cancelled : .error(error)
    }

    /// The outcome as PromiseKitStyle stores it: a cancellation becomes `PMKError.cancelled`.
    var pmkResult: PromiseKitStyle.Result<Value> {
        switch self {
        case .value(let value): return .fulfilled(value)
        case .error(let error): return .rejected(error)
        case .cancelled: return .rejected(PMKError.cancelled)
        }
    }
}

/// Whether `error` stands for cancellation in any of the three styles.
func isCancellation(_ error: any Error) -> Bool {
    error is BFCancelledError || error.isCancelled
}

/// Receives a settlement once, on whichever thread settles the source: `@Sendable`, so that the handlers of the
/// conversions are checked whether or not the trait CheckedHandlers is on.
typealias SettlementHandler<Value> = @Sendable (Settlement<Value>) -> Void

/// The queue FBLStyle blocks of the bridge run on: concurrent, so conversions do not wait for each other, and never
/// the main queue.
let fblBridgeQueue = DispatchQueue(label: "PromiseBridge.FBLStyle", attributes: .concurrent)
