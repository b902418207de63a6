// Making a target of each style from a source of any style: the target's settle function is registered on the source
// with `subscribe(_:)` (which calls it at once for a settled source).

import BoltsStyle
import FBLStyle
import PromiseKitStyle
import PromisePlumbing

/// A promise of some style that reports its outcome once, as a ``Settlement``.
protocol SettlementSource {
    /// The type of the value the source succeeds with.
    associatedtype Settled

    /// Calls `handler` once with the outcome: right away if the source has settled, otherwise when it settles.
    /// The source keeps `handler` until then and must not retain itself through it.
    func subscribe(_ handler: @escaping SettlementHandler<Settled>)
}

/// A `BFTask` completed by the source's outcome: the value, the same error, or cancelled.
func makeBFTask<Source: SettlementSource>(from source: Source) -> BFTask<Source.Settled> {
    // The target crosses to the settling thread whatever its value type: it settles once, under its own lock.
    let completion = UncheckedSendable(BFTaskCompletionSource<Source.Settled>())
    source.subscribe { settlement in
        switch settlement {
        case .value(let value): completion.value.trySet(result: value)
        case .error(let error): completion.value.trySet(error: error)
        case .cancelled: completion.value.tryCancel()
        }
    }
    return completion.value.task
}

/// A PromiseKitStyle promise resolved by the source's outcome: the value, the same error, or `PMKError.cancelled`.
///
/// Made with `Promise(_ bridge: Thenable)`, PromiseKit's own way to adopt a foreign thenable; unlike
/// `Promise.pending()` it reports nothing if it is released unresolved together with a source that never settles.
func makePMKPromise<Source: SettlementSource>(from source: Source) -> PromiseKitStyle.Promise<Source.Settled> {
    PromiseKitStyle.Promise(SourceThenable(source))
}

/// An FBLStyle promise resolved by the source's outcome: the value, the same error, or `CancellationError()`.
func makeFBLPromise<Source: SettlementSource>(from source: Source) -> FBLStyle.Promise<Source.Settled> {
    // The target crosses to the settling thread whatever its value type: it settles once, under its own lock.
    let target = UncheckedSendable(FBLStyle.Promise<Source.Settled>.pending())
    source.subscribe { settlement in
        switch settlement {
        case .value(let value): target.value.fulfill(value)
        case .error(let error): target.value.reject(error)
        case .cancelled: target.value.reject(CancellationError())
        }
    }
    return target.value
}

/// A source seen as a PromiseKit thenable, only to hand it to `Promise(_:)`, which pipes it once and lets it go.
final class SourceThenable<Source: SettlementSource>: Thenable {
    private let source: Source

    init(_ source: Source) {
        self.source = source
    }

    func pipe(to: @escaping (Result<Source.Settled>) -> Void) {
        // `pipe(to:)`'s handler is PromiseKit's plain closure; here it is `Promise(_:)`'s own, which seals that
        // promise and touches nothing else.
        nonisolated(unsafe) let to = to
        source.subscribe { to($0.pmkResult) }
    }

    /// Not read by `Promise(_:)`; the bridge never hands this object to anything else.
    var result: Result<Source.Settled>? { nil }
}
