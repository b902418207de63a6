import Dispatch

// The deep-chain clauses: chains of every link kind the adapter can make, settled and dropped on a thread with a
// large stack (DeepStackThread), where the stack's growth per link is measured (StackGrowth) instead of crashing:
// chains of 250 and 1,000 links are measured, then one of 4,000 checked.

extension ClauseContext {
    /// The lengths of the two chains each deep-chain case measures first: the growth of the stack between them is
    /// per link (``StackGrowth``).
    static let probeLengths = [250, 1_000]

    /// The lengths of the chains each deep-chain case then builds, once no recursion showed: 4,000 links; with
    /// PROMISES_STRESS=1 a chain of 1,000,000 after that.
    var deepChainLengths: [Int] { stress ? [Self.longChainLength, Self.stressChainLength] : [Self.longChainLength] }

    /// The length of the long chain of a default run.
    static let longChainLength = 4_000
    /// The length of the longest chain of a stress run.
    static let stressChainLength = 1_000_000

    /// The lengths of the long chains a case builds once the measured ones showed no recursion: ``deepChainLengths``
    /// for a chain through the adapter's `then` on the default queue whose root settles last (the older
    /// `swift.deepChain`'s shape); for the others (the root settled first, on a serial queue, through an entry point),
    /// none, or ``longChainLength`` with PROMISES_STRESS=1. Their measured chains check their outcome too, and a run
    /// stays short over an adapter with many entry points.
    private func longLengths(via: ErasedEntryPoint?, queue: DispatchQueue?, settledFirst: Bool) -> [Int] {
        if via == nil && queue == nil && !settledFirst { return deepChainLengths }
        return stress ? [Self.longChainLength] : []
    }

    /// Measures the stack of chains of ``probeLengths`` links of `kind` from a `root` root, through `via` (the
    /// adapter's `then` when nil) with handlers on `queue`, the root settled before the chain is built when
    /// `settledFirst` and after otherwise; fails when it grew per link; then builds chains of ``deepChainLengths``.
    /// Each chain must end as its root.
    func settleChain(
        _ kind: ChainLink, _ root: ChainRoot, settledFirst: Bool, queue: DispatchQueue?, via: ErasedEntryPoint?
    ) throws {
        var growth = StackGrowth()
        for length in Self.probeLengths {
            let depth = try buildAndSettle(
                kind, root, settledFirst: settledFirst, queue: queue, via: via, length: length, measured: true)
            growth.record(link: length, bytes: depth)
        }
        if let recursion = growth.recursion { throw failure(recursion) }
        for length in longLengths(via: via, queue: queue, settledFirst: settledFirst) {
            _ = try buildAndSettle(
                kind, root, settledFirst: settledFirst, queue: queue, via: via, length: length, measured: false)
        }
    }

    /// One chain of ``settleChain(_:_:settledFirst:queue:via:)``, built and settled on a ``DeepStackThread``; returns
    /// the most stack that took there when `measured` (``DeepStackThread/measuringDepth(_:)``), 0 otherwise.
    private func buildAndSettle(
        _ kind: ChainLink, _ root: ChainRoot, settledFirst: Bool, queue: DispatchQueue?, via: ErasedEntryPoint?,
        length: Int, measured: Bool
    ) throws -> Int {
        let spacing = max(1, length / 20)
        let adapter = adapter
        let then = via?.then ?? adapter.then
        let driver = ChainDriver()
        let reached = Locked(0)
        let end = Recorder<Outcome>()
        // The chain's ends, kept until the measured call has returned and the chain is checked: freeing the chain is
        // what swift.deepChain.dropped measures, and the settlement alone is measured here.
        let kept = Locked<[ErasedPromise]>([])
        defer { kept.withLock { $0 = [] } }
        let depth = try DeepStackThread().run(
            "the chain to be built and settled", in: clock, measured: measured, of: length,
            reached: { min(length, reached.withLock { $0 } * spacing) },
            body: { [self] in
                let start = root.start(adapter)
                if settledFirst { start.settle() }
                var last = start.promise
                for index in 1...length {
                    let (onFulfilled, onRejected) = kind.handlers(
                        for: root, adapter: adapter, driver: driver, holding: nil)
                    last = then(last, queue, onFulfilled, onRejected)
                    if index % spacing == 0 || index == length {
                        checkpoint(last, reached, end: index == length ? end : nil, driver)
                        clock.madeProgress()  // building a long chain is measured too
                    }
                }
                kept.withLock { $0 = [start.promise, last] }
                if !settledFirst { start.settle() }
                driver.drive { self.clock.deadline }
            })
        try clock.waitWhileProgressing(end, "the end of the chain", of: length) { reached.withLock { $0 } * spacing }
        try root.expect(end.snapshot[0], in: self)
        return depth
    }

    /// Registers on `promise`, a checkpoint of a chain, handlers that count it reached and, at the end of the chain,
    /// record its outcome and let `driver` stop.
    private func checkpoint(
        _ promise: ErasedPromise, _ reached: Locked<Int>, end: Recorder<Outcome>?, _ driver: ChainDriver
    ) {
        @Sendable func passed(_ outcome: Outcome) {
            reached.withLock { $0 += 1 }
            if let end {
                end.record(outcome)
                driver.finish()
            }
        }
        _ = then(
            promise, onFulfilled: fulfilling { passed(.fulfilled($0)) },
            onRejected: rejecting { passed(.rejected($0)) })
    }

    /// Measures the stack of chains of ``probeLengths`` links built through `via` (the adapter's `then` when nil),
    /// settled when `settled`, and dropped; fails when it grew per link; then builds and drops chains of
    /// ``deepChainLengths``. Every link's handler must be freed, and the chain's promises.
    func dropChain(settled: Bool, via: ErasedEntryPoint?) throws {
        let chosen =
            if let via { ChainLink.firstFitting(via, adapter.capabilities) } else {
                (ChainLink.value, ChainRoot.fulfilled)
            }
        guard let (kind, root) = chosen else { return }
        var growth = StackGrowth()
        for length in Self.probeLengths {
            let depth = try buildAndDrop(kind, root, settled: settled, via: via, length: length, measured: true)
            growth.record(link: length, bytes: depth)
        }
        if let recursion = growth.recursion {
            throw failure((settled ? "settling and dropping the chain: " : "dropping the chain: ") + recursion)
        }
        for length in longLengths(via: via, queue: nil, settledFirst: false) {
            _ = try buildAndDrop(kind, root, settled: settled, via: via, length: length, measured: false)
        }
    }

    /// One chain of ``dropChain(settled:via:)``, each link's handler holding a token, built, settled when `settled`,
    /// and dropped on a ``DeepStackThread``; returns the most stack that took there when `measured`, 0 otherwise.
    private func buildAndDrop(
        _ kind: ChainLink, _ root: ChainRoot, settled: Bool, via: ErasedEntryPoint?, length: Int, measured: Bool
    ) throws -> Int {
        let spacing = max(1, length / 20)
        let adapter = adapter
        let then = via?.then ?? adapter.then
        let driver = ChainDriver()
        let freed = Locked(0)
        let watched = Locked<[(String, WeakBox)]>([])
        // Builds the chain, settles it when `settled`, and drops it on returning.
        let depth = try DeepStackThread().run(
            "the chain to be built and dropped", in: clock, measured: measured, of: length,
            reached: { freed.withLock { $0 } },
            body: { [self] in
                let start = root.start(adapter)
                var last = start.promise
                var seen: [(String, WeakBox)] = weakPromise("the chain's first promise", last)
                for index in 1...length {
                    let (onFulfilled, onRejected) = kind.handlers(
                        for: root, adapter: adapter, driver: driver, holding: DropToken(freed))
                    last = then(last, nil, onFulfilled, onRejected)
                    if index == length / 2 { seen += weakPromise("the chain's middle promise", last) }
                    if index % spacing == 0 { clock.madeProgress() }
                }
                seen += weakPromise("the chain's last promise", last)
                watched.withLock { $0 = seen }
                if settled {
                    checkpoint(last, Locked(0), end: Recorder(), driver)
                    start.settle()
                    driver.drive { self.clock.deadline }
                }
            })
        try expectFreed(freed, of: length)
        try expectReleased(watched.withLock { $0 })
        return depth
    }

    /// Polls until all `count` links' handlers are freed; fails saying how many are still alive.
    private func expectFreed(_ freed: Locked<Int>, of count: Int) throws {
        try clock.waiting {
            let limit = min(clock.deadline, DispatchTime.now() + .seconds(2))
            while freed.withLock({ $0 }) < count {
                if DispatchTime.now() >= limit {
                    let alive = count - freed.withLock { $0 }
                    throw failure(
                        "\(alive) of the \(StackGrowth.grouped(count)) links' handlers are still alive although "
                            + "nothing holds the chain")
                }
                DeepStackThread.pause()
            }
        }
    }

    /// Runs `body` as a top-level case "via NAME: case", `case` run through the entry point named NAME: the name
    /// the routed `then` clauses give their cases too (``Clause/routed(_:)``).
    func inCase(_ name: String, via entry: ErasedEntryPoint, _ body: () throws -> Void) throws {
        try inCase(RoutedCaseName.of(name, via: entry.name), body)
    }
}

/// What one link's handler holds in `swift.deepChain.dropped`: its `deinit` counts the link freed.
private final class DropToken: Sendable {
    let freed: Locked<Int>

    init(_ freed: Locked<Int>) {
        self.freed = freed
    }

    deinit {
        freed.withLock { $0 += 1 }
    }
}

/// The name of each case of `swift.deepChain.settled` for the adapter's own `then`: one per link kind and root.
private let settledChainCases: [String] = ChainLink.allCases.flatMap { kind in
    kind.roots.map { "\(kind.rawValue), \($0.rawValue) root" }
}

/// The deep-chain clauses.
let deepChainClauses: [Clause] = [
    Clause(
        "swift.deepChain.settled", "deep chains of every link kind settle without recursion per link",
        "A chain of 4,000 links of each kind (handlers that return a value, throw, return a settled promise, a pending "
            + "one or a thenable, or no handler for the outcome), from a fulfilled, rejected or cancelled root settled "
            + "before or after the chain is built, on the default queue or a serial one, and through each of the "
            + "adapter's entry points, ends as its root, and the stack of the settling thread does not grow per link "
            + "(1,000,000 links with PROMISES_STRESS=1).",
        waitsForAbsence: false, cases: settledChainCases
    ) { context in
        let serial = context.queues.marked("deepChain").queue
        for kind in ChainLink.allCases where context.adapter.capabilities.isSuperset(of: kind.requires) {
            for root in kind.roots where root.applies(to: context.adapter.capabilities) {
                try context.inCase("\(kind.rawValue), \(root.rawValue) root") {
                    for (settledFirst, queue) in [(false, nil), (true, nil), (false, serial), (true, serial)] {
                        let name =
                            (settledFirst ? "root settled first" : "root settled last")
                            + (queue == nil ? ", default queue" : ", serial queue")
                        try context.inCase(name) {
                            try context.settleChain(kind, root, settledFirst: settledFirst, queue: queue, via: nil)
                        }
                    }
                }
            }
        }
        for entry in context.adapter.entryPoints {
            for kind in ChainLink.allCases where context.adapter.capabilities.isSuperset(of: kind.requires) {
                for root in kind.roots where root.applies(to: context.adapter.capabilities) {
                    guard kind.fits(entry, from: root) else {
                        continue
                    }
                    try context.inCase("\(kind.rawValue), \(root.rawValue) root", via: entry) {
                        try context.settleChain(
                            kind, root, settledFirst: false, queue: entry.takesQueue ? serial : nil, via: entry)
                    }
                }
            }
        }
    },
    Clause(
        "swift.deepChain.dropped", "deep chains are freed without recursion per link",
        "A chain of 4,000 links, unsettled or settled, built with the adapter's `then` and through each of its entry "
            + "points, is freed once dropped, every link's handler included, and the stack of the dropping thread "
            + "does not grow per link (1,000,000 links with PROMISES_STRESS=1).",
        waitsForAbsence: false, cases: ["an unsettled chain dropped", "a settled chain dropped"]
    ) { context in
        for (settled, name) in [(false, "an unsettled chain dropped"), (true, "a settled chain dropped")] {
            try context.inCase(name) {
                try context.dropChain(settled: settled, via: nil)
            }
        }
        for entry in context.adapter.entryPoints {
            for (settled, name) in [(false, "an unsettled chain dropped"), (true, "a settled chain dropped")] {
                try context.inCase(name, via: entry) {
                    try context.dropChain(settled: settled, via: entry)
                }
            }
        }
    },
]
