import Dispatch
import Foundation

// The suite's own clauses: what A+ leaves out and every Swift user depends on.

extension ClauseContext {
    /// Polls the weak references until every object is gone; fails naming the first survivor.
    func expectReleased(_ objects: [(String, WeakBox)]) throws {
        let limit = min(clock.deadline, DispatchTime.now() + .seconds(2))
        while let survivor = objects.first(where: { $0.1.isAlive }) {
            if DispatchTime.now() >= limit {
                throw failure("\(survivor.0) is still alive although nothing holds it")
            }
            Thread.sleep(forTimeInterval: 0.002)
        }
    }

    /// A weak reference to the promise's object (``PromiseAdapter/lifetimeObject(of:)``), when it has one.
    func weakPromise(_ name: String, _ promise: ErasedPromise) -> [(String, WeakBox)] {
        adapter.lifetimeObject(promise).map { [(name, WeakBox($0))] } ?? []
    }

    /// A handler pair that holds `token` and records that it ran.
    func holding(_ token: LifetimeToken, _ ran: Recorder<Int>) -> (
        ErasedAdapter.FulfilledHandler, ErasedAdapter.RejectedHandler
    ) {
        (
            fulfilling { _ in withExtendedLifetime(token) { ran.record(1) } },
            rejecting { _ in withExtendedLifetime(token) { ran.record(1) } }
        )
    }

    /// The length of the chains `swift.deepChain` settles: long enough that settling them recursively overflows a
    /// 1 MiB stack, short enough that a library hopping a thread per step fits the time limit in a debug build.
    var settledChainLength: Int { stress ? Self.stressChainLength : Self.settledChainLength }
    /// The length of the chain `swift.deepChain` drops unsettled: building it costs no thread hop.
    var droppedChainLength: Int { stress ? Self.stressChainLength : Self.droppedChainLength }

    /// The length of the chains `swift.deepChain` settles in a default run.
    static let settledChainLength = 20_000
    /// The length of the chain `swift.deepChain` drops in a default run.
    static let droppedChainLength = 100_000

    /// How many handlers each thread of `swift.concurrentRegistration` registers: ``registrationsPerThread``, or
    /// ``stressRegistrationsPerThread`` with PROMISES_STRESS=1.
    var registrationsPerThread: Int { stress ? Self.stressRegistrationsPerThread : Self.registrationsPerThread }

    /// How many threads register handlers at once in `swift.concurrentRegistration`.
    static let registrationThreads = 4

    /// How many handlers each thread of `swift.concurrentRegistration` registers in a default run.
    static let registrationsPerThread = 100
    /// How many in a stress run.
    static let stressRegistrationsPerThread = 2_000
}

let swiftClauses: [Clause] = [
    Clause(
        "swift.queue", "handlers run on the queue asked for",
        "A handler registered with `then(on: queue)` runs on that queue (checked with a DispatchSpecificKey).",
        waitsForAbsence: false,
        cases: ["serial queue", "concurrent queue", "derived promise on another queue", "adopted promise"]
    ) { context in
        let serial = context.queues.marked("serial")
        let concurrent = context.queues.marked("concurrent", concurrent: true)
        let other = context.queues.marked("other")
        func onQueue(_ promise: ErasedPromise, _ queue: MarkedQueue) -> Recorder<Bool> {
            let seen = Recorder<Bool>()
            _ = context.then(
                promise, on: queue.queue, onFulfilled: fulfilling { _ in seen.record(queue.isCurrent) },
                onRejected: rejecting { _ in seen.record(queue.isCurrent) })
            return seen
        }
        func expectOn(_ seen: Recorder<Bool>, _ what: String) throws {
            try seen.wait(for: 1, "the handler", in: context.clock)
            try context.expect(seen.snapshot[0], "the handler did not run on \(what)")
        }
        try context.inCase("serial queue") {
            try context.eachWay(.fulfil(Sentinel(1))) { promise in
                let seen = onQueue(promise, serial)
                return { try expectOn(seen, "the serial queue") }
            }
            try context.eachWay(.reject(SentinelError(1))) { promise in
                let seen = onQueue(promise, serial)
                return { try expectOn(seen, "the serial queue") }
            }
        }
        try context.inCase("concurrent queue") {
            try context.eachWay(.fulfil(Sentinel(1))) { promise in
                let seen = onQueue(promise, concurrent)
                return { try expectOn(seen, "the concurrent queue") }
            }
        }
        try context.inCase("derived promise on another queue") {
            let pending = context.pending()
            let derived = context.then(pending.promise, on: serial.queue, onFulfilled: { _ in .fulfill(Sentinel(2)) })
            let seen = onQueue(derived, other)
            pending.fulfill(Sentinel(1))
            try expectOn(seen, "the derived promise's queue")
        }
        try context.inCase("adopted promise") {
            let x = context.pending()
            let derived = context.then(
                context.adapter.fulfilled(Sentinel(1)), on: serial.queue, onFulfilled: { _ in .adopt(x.promise) })
            let seen = onQueue(derived, other)
            DispatchQueue.global().async { x.fulfill(Sentinel(2)) }
            try expectOn(seen, "the queue asked for")
        }
    }.routed(RoutedCalls(handlers: [.onFulfilled, .onRejected], results: [.value, .throw, .adopt], same: false)),
    Clause(
        "swift.race", "exactly-once settlement under racing threads",
        "When fulfil and reject race from threads released together at a barrier, the promise settles once, and every "
            + "handler (registered before, during or after) runs once and sees that one outcome.",
        waitsForAbsence: true,
        cases: [racingResolversCase]
    ) { context in
        try context.inCase(racingResolversCase) {
            // The rounds whose handlers were checked at once but not yet after a grace period.
            var unswept: [(round: Int, recorders: [Recorder<Outcome>])] = []
            func check(_ round: Int, _ recorders: [Recorder<Outcome>]) throws {
                let seen = recorders.map(\.snapshot)
                let first = seen[0][0]
                let consistent = seen.allSatisfy { $0.count == 1 && $0[0].same(as: first) }
                try context.expect(
                    consistent,
                    "round \(round): handlers registered before, during and after saw "
                        + seen.map { "\($0)" }.joined(separator: ", "))
            }
            func sweep() throws {
                context.clock.waitGrace()
                for (round, recorders) in unswept { try check(round, recorders) }
                unswept.removeAll()
            }
            try RacingThreads.with(parties: 5) { threads in
                try context.racing.rounds(minimum: 150) { round in
                    let pending = context.pending()
                    let before = context.observe(pending.promise)
                    let during = Recorder<Outcome>()
                    try context.racing.round(threads, "the racing resolvers") { party in
                        switch party {
                        case 0, 2: pending.fulfill(Sentinel(party))
                        case 1, 3: pending.reject(SentinelError(party))
                        default:
                            _ = context.then(
                                pending.promise, onFulfilled: fulfilling { during.record(.fulfilled($0)) },
                                onRejected: rejecting { during.record(.rejected($0)) })
                        }
                    }
                    let recorders = [before, during, context.observe(pending.promise)]
                    for recorder in recorders {
                        try recorder.wait(for: 1, "every handler of round \(round)", in: context.clock)
                    }
                    try check(round, recorders)
                    unswept.append((round, recorders))
                    if unswept.count == sweepRounds { try sweep() }
                }
            }
            try sweep()
        }
    },
    Clause(
        "swift.concurrentRegistration", "handlers registered from many threads",
        "Handlers registered from threads released together at a barrier each run once, in registration order per "
            + "thread.",
        waitsForAbsence: true,
        cases: [
            "registered while pending", "registered while the promise is fulfilled",
            "registered on a fulfilled promise",
        ]
    ) { context in
        let threads = ClauseContext.registrationThreads
        let perThread = context.registrationsPerThread
        let queue = context.queues.marked("registration").queue
        @Sendable func register(
            _ promise: ErasedPromise, _ log: Recorder<HandlerCall>, thread: Int, _ indices: Range<Int>
        ) {
            for index in indices {
                _ = context.then(
                    promise, on: queue, onFulfilled: fulfilling { _ in log.record(HandlerCall(thread, index)) })
            }
        }
        // The rounds of the current case that were checked at once but not yet after a grace period, and how many
        // handler calls they hold in all.
        var unswept: [(round: Int, log: Recorder<HandlerCall>)] = []
        var unsweptCalls = 0
        func check(_ round: Int, _ log: Recorder<HandlerCall>) throws {
            if let problem = HandlerCall.problem(in: log.snapshot, threads: threads, perThread: perThread) {
                throw context.failure("round \(round): \(problem)")
            }
        }
        func sweep() throws {
            context.clock.waitGrace()
            for (round, log) in unswept { try check(round, log) }
            unswept.removeAll()
            unsweptCalls = 0
        }
        /// Waits for every handler of the round, checks their calls, and keeps the log for the check after a grace.
        func expectEveryHandlerOnce(_ round: Int, _ log: Recorder<HandlerCall>) throws {
            do {
                try log.wait(for: threads * perThread, "\(threads * perThread) handlers", in: context.clock)
            } catch {
                let seen =
                    HandlerCall.problem(in: log.snapshot, threads: threads, perThread: perThread)
                    ?? "by then each had run once"
                throw context.failure(
                    "round \(round): timed out waiting for \(threads * perThread) handlers to run; \(seen)")
            }
            try check(round, log)
            unswept.append((round, log))
            unsweptCalls += threads * perThread
            if unsweptCalls >= sweepCalls { try sweep() }
        }
        /// Races rounds of the case with a third of the race budget, then checks every round after a grace.
        func rounds(_ round: (_ index: Int) throws -> Void) throws {
            unswept.removeAll()  // a case declared as a deviation may have failed with rounds left unswept
            unsweptCalls = 0
            try context.racing.rounds(minimum: 10, share: 1.0 / 3, round)
            try sweep()
        }
        // The registering threads, and one more that settles the promise in the second case.
        try RacingThreads.with(parties: threads + 1) { racers in
            let settler = threads
            try context.inCase("registered while pending") {
                try rounds { round in
                    let pending = context.pending()
                    let log = Recorder<HandlerCall>()
                    try context.racing.round(racers, "the registering threads") { thread in
                        if thread != settler { register(pending.promise, log, thread: thread, 0..<perThread) }
                    }
                    pending.fulfill(Sentinel(1))
                    try expectEveryHandlerOnce(round, log)
                }
            }
            try context.inCase("registered while the promise is fulfilled") {
                // The first half of each thread's handlers is registered while the promise is pending; the second
                // half races the thread that fulfils it.
                try rounds { round in
                    let pending = context.pending()
                    let log = Recorder<HandlerCall>()
                    let half = perThread / 2
                    try context.racing.round(racers, "the registering threads") { thread in
                        if thread != settler { register(pending.promise, log, thread: thread, 0..<half) }
                    }
                    try context.racing.round(racers, "the registering threads and the fulfilling one") { thread in
                        if thread == settler {
                            pending.fulfill(Sentinel(1))
                        } else {
                            register(pending.promise, log, thread: thread, half..<perThread)
                        }
                    }
                    try expectEveryHandlerOnce(round, log)
                }
            }
            try context.inCase("registered on a fulfilled promise") {
                try rounds { round in
                    let promise = context.adapter.fulfilled(Sentinel(1))
                    let log = Recorder<HandlerCall>()
                    try context.racing.round(racers, "the registering threads") { thread in
                        if thread != settler { register(promise, log, thread: thread, 0..<perThread) }
                    }
                    try expectEveryHandlerOnce(round, log)
                }
            }
        }
    },
    Clause(
        "swift.deepChain", "deep chains: 20,000 handlers settled, 100,000 dropped",
        "A chain of 20,000 `then` handlers settles, and an unsettled chain of 100,000 is freed once dropped, without "
            + "overflowing the stack of a 1 MiB thread (both 1,000,000 with PROMISES_STRESS=1).",
        waitsForAbsence: false,
        cases: [
            "fulfilled through the chain", "rejected through the chain", "on a serial queue",
            "each step adopts a fulfilled promise", "an unsettled chain dropped",
        ]
    ) { context in
        let length = context.settledChainLength
        let checkpointSpacing = length / 20
        let serial = context.queues.marked("chain").queue
        func chain(
            _ name: String, queue: DispatchQueue? = nil, settlement: Settlement,
            step: @escaping ErasedAdapter.FulfilledHandler = { .fulfill($0) }
        ) throws {
            try context.inCase(name) {
                let root = context.pending()
                var last = root.promise
                // Checkpoints along the chain say how far the settlement got, so that a slow machine gets more time
                // while the chain moves (`waitWhileProgressing`), and a stalled chain says where it stopped.
                var checkpoints: [Recorder<Outcome>] = []
                for index in 1...length {
                    last = context.then(last, on: queue, onFulfilled: step)
                    if index % checkpointSpacing == 0, index < length {
                        checkpoints.append(context.observe(last))
                        context.clock.madeProgress()  // building a long chain is measured too
                    }
                }
                let recorder = context.observe(last)
                context.settle(root, settlement)
                try context.clock.waitWhileProgressing(recorder, "the end of the chain", of: length) {
                    checkpoints.prefix { $0.count > 0 }.count * checkpointSpacing
                }
                try context.expect(recorder, settlement.outcome, "the end of the chain")
            }
        }
        try chain("fulfilled through the chain", settlement: .fulfil(Sentinel(1)))
        try chain("rejected through the chain", settlement: .reject(SentinelError(1)))
        try chain("on a serial queue", queue: serial, settlement: .fulfil(Sentinel(1)))
        let adapter = context.adapter
        try chain(
            "each step adopts a fulfilled promise", settlement: .fulfil(Sentinel(1)),
            step: { .adopt(adapter.fulfilled($0)) })
        try context.inCase("an unsettled chain dropped") {
            let length = context.droppedChainLength
            func build() -> [(String, WeakBox)] {
                let token = LifetimeToken()
                let root = context.pending()
                var watched = context.weakPromise("the chain's first promise", root.promise)
                var last = root.promise
                for index in 1...length {
                    let step: ErasedAdapter.FulfilledHandler
                    if index == length {
                        step = { value in
                            withExtendedLifetime(token) {}
                            return .fulfill(value)
                        }
                    } else {
                        step = { .fulfill($0) }
                    }
                    last = context.then(last, onFulfilled: step)
                    if index == length / 2 { watched += context.weakPromise("the chain's middle promise", last) }
                    if index % checkpointSpacing == 0 { context.clock.madeProgress() }
                }
                return watched + context.weakPromise("the chain's last promise", last)
                    + [("the last link's handler", WeakBox(token))]
            }
            // Dropping the chain when `build` returns, on the clause's 1 MiB stack, must not recurse once per link;
            // then every link is freed.
            try context.expectReleased(build())
        }
    },
    Clause(
        "swift.release", "settled promises and handlers are freed",
        "A settled promise and its handlers are freed once nothing holds them (checked with weak references).",
        waitsForAbsence: false,
        cases: [
            "a fulfilled promise, its handler and derived promise", "a handler, once run, while its promise is held",
            "a rejected chain", "a pending promise nothing holds",
        ]
    ) { context in
        try context.inCase("a fulfilled promise, its handler and derived promise") {
            func setUp() throws -> [(String, WeakBox)] {
                let token = LifetimeToken()
                let ran = Recorder<Int>()
                let promise = context.adapter.fulfilled(Sentinel(1))
                let (onFulfilled, onRejected) = context.holding(token, ran)
                let derived = context.then(promise, onFulfilled: onFulfilled, onRejected: onRejected)
                try ran.wait(for: 1, "the handler", in: context.clock)
                return [("the handler", WeakBox(token))] + context.weakPromise("the promise", promise)
                    + context.weakPromise("the derived promise", derived)
            }
            try context.expectReleased(setUp())
        }
        try context.inCase("a handler, once run, while its promise is held") {
            let pending = context.pending()
            func setUp() throws -> [(String, WeakBox)] {
                let token = LifetimeToken()
                let ran = Recorder<Int>()
                let (onFulfilled, onRejected) = context.holding(token, ran)
                let derived = context.then(pending.promise, onFulfilled: onFulfilled, onRejected: onRejected)
                pending.fulfill(Sentinel(1))
                try ran.wait(for: 1, "the handler", in: context.clock)
                return [("the handler", WeakBox(token))] + context.weakPromise("the derived promise", derived)
            }
            try withExtendedLifetime(pending) { try context.expectReleased(setUp()) }
        }
        try context.inCase("a rejected chain") {
            func setUp() throws -> [(String, WeakBox)] {
                let token = LifetimeToken()
                let ran = Recorder<Int>()
                let pending = context.pending()
                let first = context.then(pending.promise, onFulfilled: { .fulfill($0) })
                let (onFulfilled, onRejected) = context.holding(token, ran)
                let second = context.then(first, onFulfilled: onFulfilled, onRejected: onRejected)
                pending.reject(SentinelError(1))
                try ran.wait(for: 1, "the handler", in: context.clock)
                return [("the handler", WeakBox(token))] + context.weakPromise("the promise", pending.promise)
                    + context.weakPromise("the first derived promise", first)
                    + context.weakPromise("the second derived promise", second)
            }
            try context.expectReleased(setUp())
        }
        try context.inCase("a pending promise nothing holds") {
            func setUp() -> [(String, WeakBox)] {
                let token = LifetimeToken()
                let pending = context.pending()
                let (onFulfilled, onRejected) = context.holding(token, Recorder<Int>())
                let derived = context.then(pending.promise, onFulfilled: onFulfilled, onRejected: onRejected)
                return [("the handler of the pending promise", WeakBox(token))]
                    + context.weakPromise("the pending promise", pending.promise)
                    + context.weakPromise("the derived promise", derived)
            }
            try context.expectReleased(setUp())
        }
    }.routed(RoutedCalls(handlers: [.onFulfilled, .onRejected], results: [.value, .throw], same: true)),
]

/// The one case of `swift.race`.
private let racingResolversCase = "fulfil and reject from racing threads, handlers registered before, during and after"

/// How many rounds of `swift.race` are checked at once before they are checked again after a grace period, all
/// together: the grace costs one wait per so many rounds, and the rounds' handlers are kept until then.
private let sweepRounds = 5000

/// How many handler calls of `swift.concurrentRegistration` are kept, over its rounds, before they are checked again
/// after a grace period, all together (a round of 4 threads of 100 handlers each holds 400; 8,000 with
/// `PROMISES_STRESS=1`).
private let sweepCalls = 100_000

/// One run of a handler that `swift.concurrentRegistration` registered: the thread that registered it, and its place
/// among that thread's registrations.
struct HandlerCall: Sendable, Equatable {
    /// The registering thread, from 0.
    let thread: Int
    /// The handler's place among its thread's registrations, from 0.
    let index: Int

    /// The run of handler `index` of `thread`.
    init(_ thread: Int, _ index: Int) {
        self.thread = thread
        self.index = index
    }

    /// What is wrong with `calls`, the handler runs of a round in which each of `threads` threads registered
    /// `perThread` handlers, numbered from 0 in registration order; nil when each ran once, in its thread's order.
    ///
    /// A wrong count is reported first, with the handlers that ran other than once ("thread 0's handlers ran 99 times
    /// for 100: handler 5 never, handler 7 twice"); then a wrong order, with the calls around the first handler out
    /// of place ("thread 0's 100 handlers each ran once, but out of registration order: 0, 1, 3, 2, …").
    static func problem(in calls: [HandlerCall], threads: Int, perThread: Int) -> String? {
        for thread in 0..<threads {
            let order = calls.filter { $0.thread == thread }.map(\.index)
            var runs = [Int](repeating: 0, count: perThread)
            for index in order { runs[index] += 1 }
            let wrong = runs.indices.filter { runs[$0] != 1 }
            if !wrong.isEmpty {
                return "thread \(thread)'s handlers ran \(order.count) times for \(perThread): "
                    + list(wrong.map { "handler \($0) \(times(runs[$0]))" }, limit: 5)
            }
            if let first = order.indices.first(where: { order[$0] != $0 }) {
                let shown = order[max(0, first - 2)...min(order.count - 1, first + 1)].map(String.init)
                let before = first > 2 ? "…, " : ""
                let after = first + 1 < order.count - 1 ? ", …" : ""
                return "thread \(thread)'s \(perThread) handlers each ran once, but out of registration order: "
                    + before + shown.joined(separator: ", ") + after
            }
        }
        return nil
    }

    /// "never", "once", "twice", "3 times", …
    private static func times(_ count: Int) -> String {
        switch count {
        case 0: "never"
        case 1: "once"
        case 2: "twice"
        default: "\(count) times"
        }
    }

    /// The first `limit` items, joined, and how many more there are.
    private static func list(_ items: [String], limit: Int) -> String {
        guard items.count > limit else { return items.joined(separator: ", ") }
        return items.prefix(limit).joined(separator: ", ") + ", and \(items.count - limit) more"
    }
}
