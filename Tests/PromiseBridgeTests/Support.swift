import BoltsStyle
import Dispatch
import FBLStyle
import Foundation
import PromiseBridge
import PromiseKitStyle
import Testing

/// A class-based error, so that tests can check an error crosses as the same instance (`===`).
final class IdentifiedError: Error, @unchecked Sendable, CustomStringConvertible {
    let id: Int
    init(_ id: Int = 0) { self.id = id }
    var description: String { "IdentifiedError(\(id))" }
}

/// The styles, with PromiseKitStyle's `Guarantee` as a source of its own.
enum Style: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case bolts, pmk, guarantee, fbl

    var testDescription: String { rawValue }

    /// The styles a promise can be converted into (a `Guarantee` is only ever a source).
    static let targets: [Style] = [.bolts, .pmk, .fbl]
}

/// How a source settles.
enum Outcome: Sendable, CustomTestStringConvertible {
    case value
    case error
    case cancelled

    var testDescription: String {
        switch self {
        case .value: "value"
        case .error: "error"
        case .cancelled: "cancelled"
        }
    }
}

/// When a source settles relative to its conversion.
enum Timing: Sendable, CaseIterable, CustomTestStringConvertible {
    /// Settled before it is converted.
    case before
    /// Settled after it is converted, from another thread.
    case laterOnAnotherThread

    var testDescription: String { self == .before ? "settled before" : "settled later on another thread" }
}

/// What a promise of any style holds, read strictly in its style's own terms: `.cancelled` only for BoltsStyle's
/// cancelled state, PromiseKitStyle's `PMKError.cancelled` and FBLStyle's `CancellationError`.
enum Observed<T> {
    case value(T)
    case error(any Error)
    case cancelled
}

/// A promise of any of the styles: `Sendable` where its value is, as the styles are under the trait CheckedHandlers.
enum AnyPromise<T> {
    case bolts(BFTask<T>)
    case pmk(PromiseKitStyle.Promise<T>)
    case guarantee(Guarantee<T>)
    case fbl(FBLStyle.Promise<T>)

    var style: Style {
        switch self {
        case .bolts: .bolts
        case .pmk: .pmk
        case .guarantee: .guarantee
        case .fbl: .fbl
        }
    }

    /// The underlying object (for weak-reference checks).
    var object: AnyObject {
        switch self {
        case .bolts(let task): task
        case .pmk(let promise): promise
        case .guarantee(let guarantee): guarantee
        case .fbl(let promise): promise
        }
    }

    /// Converts with the bridge (the identity pairs return `self`).
    func converted(to target: Style) -> AnyPromise<T> {
        switch (self, target) {
        case (.bolts(let task), .bolts): .bolts(task)
        case (.bolts(let task), .pmk): .pmk(task.asPMKPromise())
        case (.bolts(let task), .fbl): .fbl(task.asFBLPromise())
        case (.pmk(let promise), .bolts): .bolts(promise.asBFTask())
        case (.pmk(let promise), .pmk): .pmk(promise)
        case (.pmk(let promise), .fbl): .fbl(promise.asFBLPromise())
        case (.guarantee(let guarantee), .bolts): .bolts(guarantee.asBFTask())
        case (.guarantee(let guarantee), .pmk): .pmk(guarantee.asPMKPromise())
        case (.guarantee(let guarantee), .fbl): .fbl(guarantee.asFBLPromise())
        case (.fbl(let promise), .bolts): .bolts(promise.asBFTask())
        case (.fbl(let promise), .pmk): .pmk(promise.asPMKPromise())
        case (.fbl(let promise), .fbl): .fbl(promise)
        case (_, .guarantee): preconditionFailure("a Guarantee is never a conversion target")
        }
    }

    /// The current state, or `nil` while pending (read with each style's synchronous accessors).
    var observed: Observed<T>? {
        switch self {
        case .bolts(let task):
            if task.cancelled { return .cancelled }
            if let error = task.error { return .error(error) }
            return task.result.map { .value($0) }
        case .pmk(let promise):
            return promise.result.map(Self.pmkObserved)
        case .guarantee(let guarantee):
            return guarantee.result.map(Self.pmkObserved)
        case .fbl(let promise):
            if promise.isFulfilled { return .value(promise.value!) }
            if let error = promise.error { return error is CancellationError ? .cancelled : .error(error) }
            return nil
        }
    }

    private static func pmkObserved(_ result: Result<T>) -> Observed<T> {
        switch result {
        case .fulfilled(let value): return .value(value)
        case .rejected(PMKError.cancelled): return .cancelled
        case .rejected(let error): return .error(error)
        }
    }

    /// Waits (without blocking a thread) until the promise settles, through each style's plain callback API,
    /// and returns what it holds.
    func settled() async -> Observed<T> {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            switch self {
            case .bolts(let task):
                _ = task.continueWith(.immediate) { _ in continuation.resume() }
            case .pmk(let promise):
                promise.pipe { _ in continuation.resume() }
            case .guarantee(let guarantee):
                guarantee.pipe { _ in continuation.resume() }
            case .fbl(let promise):
                promise.always(on: .global()) { continuation.resume() }
            }
        }
        return observed!
    }
}

/// Settles a promise made by `makePending` with an outcome, a value and an error.
typealias Settle = @Sendable (Outcome, Int, IdentifiedError) -> Void

/// Makes a pending promise of `style` and a function that settles it (callable from any thread).
func makePending(_ style: Style) -> (promise: AnyPromise<Int>, settle: Settle) {
    switch style {
    case .bolts:
        let source = BFTaskCompletionSource<Int>()
        return (
            .bolts(source.task),
            { outcome, value, error in
                switch outcome {
                case .value: source.set(result: value)
                case .error: source.set(error: error)
                case .cancelled: source.cancel()
                }
            }
        )
    case .pmk:
        let (promise, resolver) = PromiseKitStyle.Promise<Int>.pending()
        return (
            .pmk(promise),
            { outcome, value, error in
                switch outcome {
                case .value: resolver.fulfill(value)
                case .error: resolver.reject(error)
                case .cancelled: resolver.reject(PMKError.cancelled)
                }
            }
        )
    case .guarantee:
        let (guarantee, resolve) = Guarantee<Int>.pending()
        return (
            .guarantee(guarantee),
            { outcome, value, _ in
                precondition(outcome == .value, "a Guarantee only has values")
                resolve(value)
            }
        )
    case .fbl:
        let promise = FBLStyle.Promise<Int>.pending()
        return (
            .fbl(promise),
            { outcome, value, error in
                switch outcome {
                case .value: promise.fulfill(value)
                case .error: promise.reject(error)
                case .cancelled: promise.reject(CancellationError())
                }
            }
        )
    }
}

/// Makes a promise of `style` that settles with `outcome` now or later on another thread; `settleLater` starts that.
func makeSource(
    _ style: Style, _ outcome: Outcome, _ timing: Timing, value: Int = 42, error: IdentifiedError
) -> (promise: AnyPromise<Int>, settleLater: @Sendable () -> Void) {
    let (promise, settle) = makePending(style)
    switch timing {
    case .before:
        settle(outcome, value, error)
        return (promise, {})
    case .laterOnAnotherThread:
        return (promise, { DispatchQueue.global().async { settle(outcome, value, error) } })
    }
}

/// Checks that `observed` is `outcome` in the style's own terms, with the same value and the same error instance.
func expect<T: Equatable>(
    _ observed: Observed<T>?, is outcome: Outcome, value: T, error: IdentifiedError,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    switch (observed, outcome) {
    case (.value(let got)?, .value):
        #expect(got == value, sourceLocation: sourceLocation)
    case (.error(let got)?, .error):
        let same = (got as? IdentifiedError) === error
        #expect(same, "not the same error instance: \(got)", sourceLocation: sourceLocation)
    case (.cancelled?, .cancelled):
        break
    default:
        Issue.record("expected \(outcome), got \(String(describing: observed))", sourceLocation: sourceLocation)
    }
}

/// A counter that resumes a waiter once it reaches zero. (Guarded by an `NSLock`, a pthread mutex the thread sanitizer
/// understands; it does not see through `Synchronization.Mutex` on Linux.)
final class Countdown: @unchecked Sendable {
    private let lock = NSLock()
    private var remaining: Int
    private var waiter: CheckedContinuation<Void, Never>?

    init(_ count: Int) {
        remaining = count
    }

    func tick() {
        let toResume = lock.withLock { () -> CheckedContinuation<Void, Never>? in
            remaining -= 1
            guard remaining == 0 else { return nil }
            defer { waiter = nil }
            return waiter
        }
        toResume?.resume()
    }

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = lock.withLock { () -> Bool in
                if remaining == 0 { return true }
                waiter = continuation
                return false
            }
            if done { continuation.resume() }
        }
    }
}

/// Returns `true` once `condition` holds, trying for up to `seconds` (a bounded wait, not a timing assertion).
///
/// Measured with `DispatchTime` and `Task.sleep(nanoseconds:)`, which exist at the package's floor (the clocks and
/// `Task.sleep(for:)` start at macOS 13 / iOS 16), so every test that uses it builds there too.
func eventually(within seconds: Double = 30, _ condition: () -> Bool) async -> Bool {
    let deadline = DispatchTime.now() + seconds
    while DispatchTime.now() < deadline {
        if condition() { return true }
        try? await Task.sleep(nanoseconds: 2_000_000)
    }
    return condition()
}

extension AnyPromise: Sendable where T: Sendable {}
