/// The kind of every link of one deep chain (`swift.deepChain.settled`): what its handler returns, or that it has no
/// handler for the outcome that reaches it.
///
/// Each kind passes the root's outcome on unchanged through its own path, so that a chain of any length ends as its
/// root: a value returned again, a reason thrown again, a settled or a pending promise or a thenable settled the same
/// way, or the outcome passed through a link whose only handler is for the other one.
enum ChainLink: String, CaseIterable, Sendable {
    case value = "handlers return a value"
    case `throw` = "handlers throw"
    case settledPromise = "handlers return a settled promise"
    case pendingPromise = "handlers return a pending promise"
    case thenable = "handlers return a thenable"
    case passThrough = "no handler for the outcome"

    /// The root outcomes a chain of this kind passes on: a value cannot be returned as a reason, nor a reason thrown
    /// as a value.
    var roots: [ChainRoot] {
        switch self {
        case .value: [.fulfilled]
        case .throw: [.rejected, .cancelled]
        default: [.fulfilled, .rejected, .cancelled]
        }
    }

    /// What an adapter must declare for chains of this kind.
    var requires: Capabilities { self == .thenable ? .assimilation : [] }

    /// The one handler each link gives, for a chain from `root`.
    func handler(for root: ChainRoot) -> HandlerKinds {
        let fulfilled = root == .fulfilled
        return fulfilled != (self == .passThrough) ? .onFulfilled : .onRejected
    }

    /// What that handler returns.
    func result(for root: ChainRoot) -> ResultKinds {
        switch self {
        case .value: .value
        case .throw: .throw
        case .settledPromise, .pendingPromise: .adopt
        case .thenable: .assimilate
        case .passThrough: root == .fulfilled ? .throw : .value
        }
    }

    /// Whether a link of this kind from `root` can go through `entry`: its handler, what that returns, and whether
    /// the link passes on the outcome it got unchanged (as an observer such as `catch` does).
    func fits(_ entry: ErasedEntryPoint, from root: ChainRoot) -> Bool {
        let same = self == .value || self == .throw || self == .passThrough
        return entry.fits(handler(for: root), result(for: root), same: same, queue: entry.takesQueue)
    }

    /// The link's handlers for a chain from `root`: each returns what this kind returns, holding `token` (so that the
    /// token lives as long as the handler). A pending promise's settlement goes to `driver`, which makes it after the
    /// handler has returned the promise.
    func handlers(
        for root: ChainRoot, adapter: ErasedAdapter, driver: ChainDriver, holding token: (any AnyObject & Sendable)?
    ) -> (ErasedAdapter.FulfilledHandler?, ErasedAdapter.RejectedHandler?) {
        let kind = self
        let resolve: @Sendable (Result<Sentinel, any Error>) -> HandlerResult<ErasedPromise> = { outcome in
            withExtendedLifetime(token) {
                switch kind {
                case .value, .throw, .passThrough:
                    switch outcome {
                    case .success(let value): return .fulfill(value)
                    case .failure(let error): return .reject(error)
                    }
                case .settledPromise:
                    switch outcome {
                    case .success(let value): return .adopt(adapter.fulfilled(value))
                    case .failure(let error): return .adopt(adapter.rejected(error))
                    }
                case .pendingPromise:
                    let pending = adapter.pending()
                    driver.add {
                        switch outcome {
                        case .success(let value): pending.fulfill(value)
                        case .failure(let error): pending.reject(error)
                        }
                    }
                    return .adopt(pending.promise)
                case .thenable:
                    return .assimilate(ImmediateThenable(outcome: outcome))
                }
            }
        }
        return handler(for: root) == .onFulfilled
            ? ({ resolve(.success($0)) }, nil) : (nil, { resolve(.failure($0)) })
    }
}

extension ChainLink {
    /// The first kind and root, in the order of ``allCases`` and ``roots``, whose links fit `entry`, among those an
    /// adapter that declares `capabilities` can make; nil when none does.
    static func firstFitting(_ entry: ErasedEntryPoint, _ capabilities: Capabilities) -> (ChainLink, ChainRoot)? {
        for kind in allCases where capabilities.isSuperset(of: kind.requires) {
            for root in kind.roots
            where root.applies(to: capabilities)
                && kind.fits(entry, from: root)
            {
                return (kind, root)
            }
        }
        return nil
    }
}

/// How the root of a deep chain settles.
enum ChainRoot: String, Sendable {
    case fulfilled, rejected, cancelled

    /// Whether an adapter that declares `capabilities` can make such a root: a cancelled one needs
    /// ``Capabilities/cancellation``.
    func applies(to capabilities: Capabilities) -> Bool {
        self != .cancelled || capabilities.contains(.cancellation)
    }

    /// A pending root and what settles it this way.
    func start(_ adapter: ErasedAdapter) -> (promise: ErasedPromise, settle: @Sendable () -> Void) {
        switch self {
        case .fulfilled:
            let pending = adapter.pending()
            return (pending.promise, { pending.fulfill(Sentinel(1)) })
        case .rejected:
            let pending = adapter.pending()
            return (pending.promise, { pending.reject(SentinelError(1)) })
        case .cancelled:
            let pending = adapter.cancellablePending()
            return (pending.promise, pending.cancel)
        }
    }

    /// Checks that `seen`, the end of a chain, settled as this root.
    func expect(_ seen: Outcome, in context: ClauseContext) throws {
        try context.expect.castable(seen, "the end of the chain")
        let expected: Bool
        switch (self, seen) {
        case (.fulfilled, _): expected = seen.same(as: .fulfilled(Sentinel(1)))
        case (.rejected, _): expected = seen.same(as: .rejected(SentinelError(1)))
        case (.cancelled, .rejected(let error)): expected = context.adapter.isCancellation(error)
        case (.cancelled, .fulfilled): expected = false
        }
        let what = self == .cancelled ? "cancelled" : "\(self.rawValue) like its root"
        try context.expect(expected, "expected the end of the chain to be \(what), but it was \(seen)")
    }
}

/// A thenable that calls back at once with its outcome, inside `then`: a chain's links assimilate it.
private struct ImmediateThenable: Thenable {
    let outcome: Result<Sentinel, any Error>

    func then(
        _ resolvePromise: @escaping @Sendable (ThenableValue) -> Void,
        _ rejectPromise: @escaping @Sendable (any Error) -> Void
    ) throws {
        switch outcome {
        case .success(let value): resolvePromise(.value(value))
        case .failure(let error): rejectPromise(error)
        }
    }
}
