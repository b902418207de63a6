// PromiseKitStyle's mechanism as a toy: PromiseKit 8's handler list behind a concurrent DispatchQueue used as a
// reader-writer barrier, and `then` on top of it. The real core is Sources/PromiseKitStyle/Core/Box.swift, which keeps the
// barrier's two calls but makes it a lock of the box's own. What the toy leaves out (the trampoline of long inline
// chains, the iterative release of a dropped chain, the `returnedSelf` check of `then`, cancellation, `when` and
// `race`) is what the conformance matrix in docs/guide.md shows it missing. The region between the guide markers is
// shown verbatim in the DocC article "How the handler queue works" (ArticleCodeTests checks it), beside the core's
// invariants.
import Dispatch

// guide:begin queue-box
/// A handler list behind a concurrent queue: reads with `sync`, writes with `sync(flags: .barrier)`.
final class QueueBox<Value>: @unchecked Sendable {
    private let barrier = DispatchQueue(label: "QueueBox", attributes: .concurrent)
    private var sealed: Value?
    private var handlers: [(Value) -> Void] = []
    private var draining = false  // sealed, but the sealing thread is still running the handlers

    var value: Value? { barrier.sync { sealed } }

    func pipe(_ handler: @escaping (Value) -> Void) {
        let ready: Value? = barrier.sync(flags: .barrier) {
            guard let sealed, !draining else {
                handlers.append(handler)  // pending or draining: the sealing thread runs it after the others
                return nil
            }
            return sealed
        }
        if let ready { handler(ready) }  // outside the barrier
    }

    func seal(_ value: Value) {
        let first: Bool = barrier.sync(flags: .barrier) {
            guard sealed == nil else { return false }  // already sealed: change nothing
            (sealed, draining) = (value, true)
            return true
        }
        guard first else { return }
        while let taken = takeHandlers() {
            for handler in taken { handler(value) }  // outside the barrier, in the order piped
        }
    }

    /// The handlers piped since the last take, or nil when there are none (then the box has drained).
    private func takeHandlers() -> [(Value) -> Void]? {
        barrier.sync(flags: .barrier) {
            defer { handlers = [] }
            draining = !handlers.isEmpty
            return draining ? handlers : nil
        }
    }
}

extension QueueBox where Value: Sendable {
    /// PromiseKit's `then`, over `pipe` and `seal`: `body` runs on `queue`, and the box it returns seals the
    /// one returned here.
    func then<U>(on queue: DispatchQueue, _ body: @escaping @Sendable (Value) -> QueueBox<U>) -> QueueBox<U> {
        let next = QueueBox<U>()
        pipe { value in queue.async { body(value).pipe(next.seal) } }
        return next
    }
}
// guide:end queue-box
