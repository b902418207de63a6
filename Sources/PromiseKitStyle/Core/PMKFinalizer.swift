// PMKFinalizer.swift: the handler of `catch`, which is also the box `finally` registers on (Catchable.swift makes it).

import Dispatch

/// The end of a chain, returned by `catch`: `finally` runs after the `catch` handler (or right away if the chain
/// fulfilled or the error was skipped).
///
/// The finalizer is itself the box `finally` registers on (one object, not a finalizer holding a guarantee), and it
/// holds the parts of the `catch` that made it, so the handler `catch` registers captures the finalizer alone and
/// needs no context of its own: a `catch` allocates this one object.
public final class PMKFinalizer: PMKBox<Void> {
    /// The `catch` handler; dropped once it has run or the chain has ended without needing it, as PromiseKit's
    /// closure is, so that a kept finalizer does not keep the handler's captures alive. Written only by `init`, `end`
    /// and `handle`, one after the other.
    @usableFromInline @exclusivity(unchecked) final var body: ((Error) -> Void)?
    @usableFromInline final let queue: DispatchQueue?
    @usableFromInline final let flags: DispatchWorkItemFlags?
    @usableFromInline final let policy: CatchPolicy
    /// The error on its way to the queue: set by `end` just before it sends the block, taken by the block. The block
    /// captures the finalizer alone, as a `Hop`'s captures its handler (Hop.swift), so it allocates no context.
    @usableFromInline @exclusivity(unchecked) final var error: Error?

    @usableFromInline init(
        on queue: DispatchQueue?, flags: DispatchWorkItemFlags?, policy: CatchPolicy,
        _ body: @escaping (Error) -> Void
    ) {
        self.body = body
        self.queue = queue
        self.flags = flags
        self.policy = policy
        super.init(report: .none)
    }

    /// The chain ended, rejected with `error` or fulfilled (`nil`): calls the handler on its queue unless the chain
    /// fulfilled or the policy skips `error`, then resolves. Called once, by the handler `catch` registered.
    @usableFromInline final func end(_ error: Error?) {
        guard let error, policy.handles(error) else {
            body = nil
            seal(())
            return
        }
        guard let queue else { return handle(error) }
        self.error = error
        queue.dispatch(flags: flags, handleError)
    }

    /// What the block `end` sends runs: `handle` with the error `end` left in `error`.
    @usableFromInline final func handleError() {
        handle(error.take()!)
    }

    /// Calls the handler with `error`, drops it, and resolves.
    @usableFromInline final func handle(_ error: Error) {
        let handler = body!
        body = nil
        handler(error)
        seal(())
    }

    /// Runs `body` once the chain has finished, whatever its outcome. Not chainable, unlike `ensure`.
    #if CheckedHandlers
        @_disfavoredOverload  // `on: .main` picks the main-actor form (Thenable+MainActor.swift)
    #endif
    public func finally(
        on: DispatchQueue? = conf.Q.return, flags: DispatchWorkItemFlags? = nil, _ body: @escaping PMKThunk<Void>
    ) {
        nonisolated(unsafe) let body: () -> Void = body
        pipe { _ in on.dispatch(flags: flags) { body() } }
    }
}

// The conformance `PMKBox<Void>` gives (Box.swift), restated as Swift requires of a subclass.
extension PMKFinalizer: @unchecked Sendable {}
