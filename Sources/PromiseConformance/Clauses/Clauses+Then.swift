import Dispatch
import Foundation

// A+ 2.2: the `then` method.

extension ClauseContext {
    /// 2.2.2.1 / 2.2.3.1: the handler for `settlement` is called with the value or reason.
    func checkHandlerCalled(_ settlement: Settlement) throws {
        try eachWay(settlement) { promise in
            let recorder = Recorder<Outcome>()
            if case .fulfil = settlement {
                _ = then(promise, onFulfilled: fulfilling { recorder.record(.fulfilled($0)) })
            } else {
                _ = then(promise, onRejected: rejecting { recorder.record(.rejected($0)) })
            }
            return { [self] in try expect(recorder, settlement.outcome, "the handler's argument") }
        }
    }

    /// 2.2.2.2 / 2.2.3.2: the handler for `settlement` is not called before, nor when the promise settles the other
    /// way.
    func checkHandlerNotCalledEarly(_ settlement: Settlement, other: Settlement) throws {
        let handlerName = settlement.verb == "fulfilled" ? "onFulfilled" : "onRejected"
        try inCase("settled after a delay") {
            let pending = pending()
            let recorder = observe(pending.promise)
            clock.waitGrace()
            try expect(recorder.count == 0, "\(handlerName) was called before the promise settled")
            settle(pending, settlement)
            try expect(recorder, settlement.outcome)
        }
        try inCase("never settled") {
            let pending = pending()
            try expect.pending(pending.promise)
            withExtendedLifetime(pending.fulfill) {}
        }
        try inCase("settled the other way") {
            let pending = pending()
            let recorder = Recorder<Outcome>()
            if case .fulfil = settlement {
                _ = then(pending.promise, onFulfilled: fulfilling { recorder.record(.fulfilled($0)) })
            } else {
                _ = then(pending.promise, onRejected: rejecting { recorder.record(.rejected($0)) })
            }
            settle(pending, other)
            try expect.only(observe(pending.promise), other.outcome)
            try expect(recorder.count == 0, "\(handlerName) was called although the promise was \(other.verb)")
        }
    }

    /// 2.2.2.3 / 2.2.3.3: the handler is called once.
    func checkHandlerCalledOnce(_ settlement: Settlement, others: [Settlement]) throws {
        try eachWay(settlement) { promise in
            let recorder = observe(promise)
            return { [self] in
                try recorder.wait(for: 1, "the handler", in: clock)
                clock.waitGrace()
                try expect(recorder.count == 1, "the handler was called \(recorder.count) times")
            }
        }
        try inCase("settled several times") {
            let pending = pending()
            let recorder = observe(pending.promise)
            settle(pending, settlement)
            for other in others { settle(pending, other) }
            try recorder.wait(for: 1, "the handler", in: clock)
            clock.waitGrace()
            try expect(recorder.count == 1, "the handler was called \(recorder.count) times")
        }
        try inCase("several handlers, each once") {
            let pending = pending()
            let recorders = (0..<3).map { _ in observe(pending.promise) }
            settle(pending, settlement)
            for recorder in recorders { try recorder.wait(for: 1, "every handler", in: clock) }
            clock.waitGrace()
            let counts = recorders.map(\.count)
            try expect(counts == [1, 1, 1], "the handlers were called \(counts) times")
        }
    }

    /// 2.2.4: handlers never run on the stack of `then`, `fulfill` or `reject`.
    func checkHandlersAsynchronous(_ settlement: Settlement) throws {
        let verb = settlement.verb
        try inCase("then on an already-\(verb) promise") {
            let promise = settled(settlement)
            let probe = NestingProbe()
            probe.during {
                _ = then(
                    promise, onFulfilled: fulfilling { _ in probe.handlerRuns() },
                    onRejected: rejecting { _ in probe.handlerRuns() })
            }
            try probe.nested.wait(for: 1, "the handler", in: clock)
            try expect(!probe.nested.snapshot[0], "the handler ran before `then` returned")
        }
        try inCase("handler registered on a pending promise, then \(verb)") {
            let pending = pending()
            let probe = NestingProbe()
            _ = then(
                pending.promise, onFulfilled: fulfilling { _ in probe.handlerRuns() },
                onRejected: rejecting { _ in probe.handlerRuns() })
            probe.during { settle(pending, settlement) }
            try probe.nested.wait(for: 1, "the handler", in: clock)
            let call = verb == "fulfilled" ? "fulfill" : "reject"
            try expect(!probe.nested.snapshot[0], "the handler ran before `\(call)` returned")
        }
        try inCase("then called inside a handler of the same \(verb) promise") {
            let promise = settled(settlement)
            let inner = Recorder<Bool>()
            let register: @Sendable () -> Void = { [self] in
                let probe = NestingProbe()
                probe.during {
                    _ = then(
                        promise, onFulfilled: fulfilling { _ in probe.handlerRuns() },
                        onRejected: rejecting { _ in probe.handlerRuns() })
                }
                // Forward the inner handler's observation once it has run.
                DispatchQueue.global().async {
                    if probe.nested.signalWait(until: self.clock.deadline) { inner.record(probe.nested.snapshot[0]) }
                }
            }
            _ = then(
                promise, onFulfilled: fulfilling { _ in register() }, onRejected: rejecting { _ in register() })
            try inner.wait(for: 1, "the inner handler", in: clock)
            try expect(!inner.snapshot[0], "the inner handler ran before the inner `then` returned")
        }
    }

    /// How many promises each way of settling in 2.2.6.1 and 2.2.6.2, and their case of a handler added inside another,
    /// give three handlers: 10.
    ///
    /// A `then` that registers its handler later, on another thread, misorders three handlers only some of the time,
    /// so with one promise per way the clause failed such a library in some runs and passed it in others; ten
    /// promises per way are ten chances in each case, and the case still waits once.
    static let orderCopies = 10

    /// Waits for three handlers on each log, then the grace period, and expects each to have run as 1, 2, 3.
    private func expectOrdered(_ logs: [Recorder<String>]) throws {
        for log in logs { try log.wait(for: 3, "three handlers", in: clock) }
        clock.waitGrace()
        for (index, log) in logs.enumerated() where log.snapshot != ["1", "2", "3"] {
            let which = logs.count > 1 ? " (promise \(index + 1) of \(logs.count))" : ""
            try expect(false, "the handlers ran as \(log.snapshot), not [1, 2, 3]\(which)")
        }
    }

    /// 2.2.6.1 / 2.2.6.2: handlers run in the order of their `then` calls.
    func checkHandlersInOrder(_ settlement: Settlement) throws {
        let queue = queues.marked("order").queue
        try eachWay(settlement, copies: Self.orderCopies) { promises in
            let logs = promises.map { promise in
                let log = Recorder<String>()
                for label in ["1", "2", "3"] {
                    let (onFulfilled, onRejected) = logging(log, label)
                    _ = then(promise, on: queue, onFulfilled: onFulfilled, onRejected: onRejected)
                }
                return log
            }
            return { [self] in try expectOrdered(logs) }
        }
        try inCase("one handler throws") {
            let pending = pending()
            let log = Recorder<String>()
            let (onFulfilled, onRejected) = logging(log, "1")
            _ = then(pending.promise, on: queue, onFulfilled: onFulfilled, onRejected: onRejected)
            _ = then(
                pending.promise, on: queue,
                onFulfilled: { _ in
                    log.record("2")
                    return .reject(SentinelError(99))
                },
                onRejected: { _ in
                    log.record("2")
                    return .reject(SentinelError(99))
                })
            let (thirdFulfilled, thirdRejected) = logging(log, "3")
            _ = then(pending.promise, on: queue, onFulfilled: thirdFulfilled, onRejected: thirdRejected)
            settle(pending, settlement)
            try expectOrdered([log])
        }
        try inCase("a handler added inside another handler runs after the others") {
            // On each of `orderCopies` promises: whether the handler added inside the first one overtakes the second
            // can depend on how far the settling thread got, so each promise is one more chance.
            let pendings = (0..<Self.orderCopies).map { _ in pending() }
            let logs = pendings.map { pending in
                let log = Recorder<String>()
                let (innerFulfilled, innerRejected) = logging(log, "3")
                let addInner: @Sendable () -> Void = { [self] in
                    log.record("1")
                    _ = then(pending.promise, on: queue, onFulfilled: innerFulfilled, onRejected: innerRejected)
                }
                _ = then(
                    pending.promise, on: queue, onFulfilled: fulfilling { _ in addInner() },
                    onRejected: rejecting { _ in addInner() })
                let (onFulfilled, onRejected) = logging(log, "2")
                _ = then(pending.promise, on: queue, onFulfilled: onFulfilled, onRejected: onRejected)
                return log
            }
            for pending in pendings { settle(pending, settlement) }
            try expectOrdered(logs)
        }
        try inCase("each handler's derived promise gets its own result") {
            let pending = pending()
            let results: [HandlerResult<ErasedPromise>] = [
                .fulfill(Sentinel(11)), .reject(SentinelError(12)), .fulfill(Sentinel(13)),
            ]
            let derived = results.map { result in
                then(pending.promise, on: queue, onFulfilled: { _ in result }, onRejected: { _ in result })
            }
            settle(pending, settlement)
            try expect.fulfilled(derived[0], with: Sentinel(11), "the first derived promise")
            try expect.rejected(derived[1], with: SentinelError(12), "the second derived promise")
            try expect.fulfilled(derived[2], with: Sentinel(13), "the third derived promise")
        }
    }
}

let thenClauses: [Clause] = [
    Clause(
        "2.2.1.1", "a missing onFulfilled is ignored",
        "onFulfilled is optional: when it is not a function (nil in Swift), it is ignored.",
        waitsForAbsence: true,
        cases: ["fulfilled without onFulfilled", "fulfilled without any handler", "rejected without onFulfilled"]
    ) { context in
        try context.inCase("fulfilled without onFulfilled") {
            let recorder = Recorder<Outcome>()
            let derived = context.then(
                context.adapter.fulfilled(Sentinel(1)), onRejected: rejecting { recorder.record(.rejected($0)) })
            try context.expect.only(context.observe(derived), .fulfilled(Sentinel(1)), "the derived promise")
            try context.expect(recorder.count == 0, "onRejected was called for a fulfilled promise")
        }
        try context.inCase("fulfilled without any handler") {
            let derived = context.then(context.adapter.fulfilled(Sentinel(2)))
            try context.expect.only(context.observe(derived), .fulfilled(Sentinel(2)), "the derived promise")
        }
        try context.inCase("rejected without onFulfilled") {
            let derived = context.then(
                context.adapter.rejected(SentinelError(1)), onRejected: { _ in .fulfill(Sentinel(3)) })
            try context.expect.only(context.observe(derived), .fulfilled(Sentinel(3)), "the derived promise")
        }
    },
    Clause(
        "2.2.1.2", "a missing onRejected is ignored",
        "onRejected is optional: when it is not a function (nil in Swift), it is ignored.",
        waitsForAbsence: true,
        cases: ["rejected without onRejected", "rejected without any handler", "fulfilled without onRejected"]
    ) { context in
        try context.inCase("rejected without onRejected") {
            let recorder = Recorder<Outcome>()
            let derived = context.then(
                context.adapter.rejected(SentinelError(1)), onFulfilled: fulfilling { recorder.record(.fulfilled($0)) })
            try context.expect.only(context.observe(derived), .rejected(SentinelError(1)), "the derived promise")
            try context.expect(recorder.count == 0, "onFulfilled was called for a rejected promise")
        }
        try context.inCase("rejected without any handler") {
            let derived = context.then(context.adapter.rejected(SentinelError(2)))
            try context.expect.only(context.observe(derived), .rejected(SentinelError(2)), "the derived promise")
        }
        try context.inCase("fulfilled without onRejected") {
            let derived = context.then(
                context.adapter.fulfilled(Sentinel(1)), onFulfilled: { _ in .fulfill(Sentinel(3)) })
            try context.expect.only(context.observe(derived), .fulfilled(Sentinel(3)), "the derived promise")
        }
    },
    Clause(
        "2.2.2.1", "onFulfilled gets the value",
        "onFulfilled must be called after the promise is fulfilled, with its value as first argument.",
        waitsForAbsence: false,
        cases: ClauseContext.eachWayCases("fulfilled")
    ) { context in
        try context.checkHandlerCalled(.fulfil(Sentinel(1)))
    }.routed(RoutedCalls(handlers: .onFulfilled, results: .value, same: true)),
    Clause(
        "2.2.2.2", "onFulfilled not called early",
        "onFulfilled must not be called before the promise is fulfilled.",
        waitsForAbsence: true,
        cases: ["settled after a delay", "never settled", "settled the other way"]
    ) { context in
        try context.checkHandlerNotCalledEarly(.fulfil(Sentinel(1)), other: .reject(SentinelError(1)))
    },
    Clause(
        "2.2.2.3", "onFulfilled called at most once",
        "onFulfilled must not be called more than once.",
        waitsForAbsence: true,
        cases: ClauseContext.eachWayCases("fulfilled") + ["settled several times", "several handlers, each once"]
    ) { context in
        try context.checkHandlerCalledOnce(
            .fulfil(Sentinel(1)), others: [.fulfil(Sentinel(2)), .reject(SentinelError(3))])
    },
    Clause(
        "2.2.3.1", "onRejected gets the reason",
        "onRejected must be called after the promise is rejected, with its reason as first argument.",
        waitsForAbsence: false,
        cases: ClauseContext.eachWayCases("rejected")
    ) { context in
        try context.checkHandlerCalled(.reject(SentinelError(1)))
    }.routed(RoutedCalls(handlers: .onRejected, results: .throw, same: true)),
    Clause(
        "2.2.3.2", "onRejected not called early",
        "onRejected must not be called before the promise is rejected.",
        waitsForAbsence: true,
        cases: ["settled after a delay", "never settled", "settled the other way"]
    ) { context in
        try context.checkHandlerNotCalledEarly(.reject(SentinelError(1)), other: .fulfil(Sentinel(1)))
    },
    Clause(
        "2.2.3.3", "onRejected called at most once",
        "onRejected must not be called more than once.",
        waitsForAbsence: true,
        cases: ClauseContext.eachWayCases("rejected") + ["settled several times", "several handlers, each once"]
    ) { context in
        try context.checkHandlerCalledOnce(
            .reject(SentinelError(1)), others: [.reject(SentinelError(2)), .fulfil(Sentinel(3))])
    },
    Clause(
        "2.2.4", "handlers run asynchronously",
        "onFulfilled or onRejected must not be called until the caller's stack has unwound (never inside `then`, "
            + "`fulfill` or `reject`).",
        waitsForAbsence: false,
        cases: ["fulfilled", "rejected"].flatMap { verb in
            [
                "then on an already-\(verb) promise", "handler registered on a pending promise, then \(verb)",
                "then called inside a handler of the same \(verb) promise",
            ]
        }
    ) { context in
        try context.checkHandlersAsynchronous(.fulfil(Sentinel(1)))
        try context.checkHandlersAsynchronous(.reject(SentinelError(1)))
    },
    Clause(
        "2.2.5", "handlers called as functions",
        "onFulfilled and onRejected must be called as functions (with no `this` value).",
        notMeaningful:
            "Swift closures have no `this`: a handler is always called as a plain function, with only its argument."
    ),
    Clause(
        "2.2.6.1", "onFulfilled handlers run in order",
        "then may be called many times on one promise; when it is fulfilled, all onFulfilled handlers run in the "
            + "order of their then calls.",
        waitsForAbsence: true,
        cases: ClauseContext.eachWayCases("fulfilled") + [
            "one handler throws", "a handler added inside another handler runs after the others",
            "each handler's derived promise gets its own result",
        ]
    ) { context in
        try context.checkHandlersInOrder(.fulfil(Sentinel(1)))
    },
    Clause(
        "2.2.6.2", "onRejected handlers run in order",
        "then may be called many times on one promise; when it is rejected, all onRejected handlers run in the "
            + "order of their then calls.",
        waitsForAbsence: true,
        cases: ClauseContext.eachWayCases("rejected") + [
            "one handler throws", "a handler added inside another handler runs after the others",
            "each handler's derived promise gets its own result",
        ]
    ) { context in
        try context.checkHandlersInOrder(.reject(SentinelError(1)))
    },
    Clause(
        "2.2.7.1", "a returned value fulfils the derived promise",
        "If a handler returns a value x, the derived promise is resolved with x.",
        waitsForAbsence: false,
        cases: ClauseContext.eachWayCases("fulfilled") + ClauseContext.eachWayCases("rejected")
    ) { context in
        try context.eachWay(.fulfil(Sentinel(1))) { promise in
            let derived = context.then(promise, onFulfilled: { _ in .fulfill(Sentinel(2)) })
            return { try context.expect.fulfilled(derived, with: Sentinel(2), "the derived promise") }
        }
        try context.eachWay(.reject(SentinelError(1))) { promise in
            let derived = context.then(promise, onRejected: { _ in .fulfill(Sentinel(2)) })
            return { try context.expect.fulfilled(derived, with: Sentinel(2), "the derived promise") }
        }
    },
    Clause(
        "2.2.7.2", "a thrown error rejects the derived promise",
        "If a handler throws e, the derived promise is rejected with e as the reason.",
        waitsForAbsence: false,
        cases: ClauseContext.eachWayCases("fulfilled") + ClauseContext.eachWayCases("rejected")
    ) { context in
        try context.eachWay(.fulfil(Sentinel(1))) { promise in
            let derived = context.then(promise, onFulfilled: { _ in .reject(SentinelError(2)) })
            return { try context.expect.rejected(derived, with: SentinelError(2), "the derived promise") }
        }
        try context.eachWay(.reject(SentinelError(1))) { promise in
            let derived = context.then(promise, onRejected: { _ in .reject(SentinelError(2)) })
            return { try context.expect.rejected(derived, with: SentinelError(2), "the derived promise") }
        }
    },
    Clause(
        "2.2.7.3", "fulfilment passes through a missing onFulfilled",
        "If onFulfilled is missing and the promise is fulfilled, the derived promise is fulfilled with the same "
            + "value.",
        waitsForAbsence: true,
        cases: ClauseContext.eachWayCases("fulfilled")
    ) { context in
        try context.eachWay(.fulfil(Sentinel(1))) { promise in
            let derived = context.then(promise, onRejected: { _ in .fulfill(Sentinel(99)) })
            return { try context.expect.only(context.observe(derived), .fulfilled(Sentinel(1)), "the derived promise") }
        }
    }.routed(RoutedCalls(handlers: .onRejected, results: .value, same: false)),
    Clause(
        "2.2.7.4", "rejection passes through a missing onRejected",
        "If onRejected is missing and the promise is rejected, the derived promise is rejected with the same reason.",
        waitsForAbsence: true,
        cases: ClauseContext.eachWayCases("rejected")
    ) { context in
        try context.eachWay(.reject(SentinelError(1))) { promise in
            let derived = context.then(promise, onFulfilled: { _ in .fulfill(Sentinel(99)) })
            return {
                try context.expect.only(context.observe(derived), .rejected(SentinelError(1)), "the derived promise")
            }
        }
    }.routed(RoutedCalls(handlers: .onFulfilled, results: .value, same: false)),
]
