import Dispatch
import PromiseConformance

/// An ``InlinePromise`` whose `then` is right but for one thing: a reason reaches the next link in a new
/// `any Error` box that holds the old one, as a library does that keeps its error in a field typed `Swift.Error`
/// inside a type generic over its error, and converts it back per link. A chain of `n` links hands its end the reason
/// nested `n` boxes deep: the reason is still the root's, and every cast of it walks the boxes recursively.
///
/// The A+ clauses pass it: their chains are short, and the reason is still the root's. `swift.deepChain.settled` fails
/// every rejected root with the boxes counted. The older `swift.deepChain` crashes on its rejected chain of 20,000
/// links: freeing a reason nested 20,000 boxes deep recurses once per box too.
public struct ReboxingAdapter: InlinePromiseAdapter, Codable {
    /// The adapter.
    public init() {}

    /// `Reboxing`.
    public var name: String { "Reboxing" }

    /// Hops every outcome to `queue` (a global queue when nil); a reason goes on, to the handler or to the derived
    /// promise, in one more box.
    public func then(
        _ promise: InlinePromise, on queue: DispatchQueue?,
        onFulfilled: (@Sendable (Sentinel) -> HandlerResult<InlinePromise>)?,
        onRejected: (@Sendable (any Error) -> HandlerResult<InlinePromise>)?
    ) -> InlinePromise {
        promise.then(
            on: queue, nesting: [], onFulfilled: onFulfilled,
            onRejected: { error in
                let reboxed = Rebox<any Error>(error).erased
                return onRejected?(reboxed) ?? .reject(reboxed)
            })
    }
}

/// A value of a generic error type, converted to `any Error`: when the type is `any Error` itself, the conversion puts
/// the existential in a new box. The type parameter is spelled out where it is made (`Rebox<any Error>`), so that the
/// compiler does not open the existential and box its concrete value instead.
private struct Rebox<Failure: Error> {
    let error: Failure

    init(_ error: Failure) {
        self.error = error
    }

    var erased: any Error { error }
}
