import Dispatch
import Foundation

// A+ 2.3.3: assimilating a foreign thenable, including the misbehaving ones; A+ 2.3.4: a plain value.
// (2.3.3.2 and 2.3.3.4 are about reading a `then` property in JavaScript and have no meaning in Swift: they are listed
// with the reason, and not run.)

/// A thenable whose `then` runs a script: the suite's well-behaved and misbehaving foreign promise-likes.
struct ScriptedThenable: HelperWatchedThenable {
    typealias Resolve = @Sendable (ThenableValue) -> Void
    typealias Reject = @Sendable (any Error) -> Void

    let calls = Recorder<Int>()
    /// Set when the adapter hands this thenable to ``Assimilation/resolve(_:_:)`` rather than to its library.
    let usedHelper = Flag()
    /// The calls the script keeps for later: the check makes them once the promise has settled (`expectAssimilated`).
    let late: LateCalls
    let script: @Sendable (_ resolvePromise: @escaping Resolve, _ rejectPromise: @escaping Reject) throws -> Void

    init(_ script: @escaping @Sendable (@escaping Resolve, @escaping Reject) throws -> Void) {
        self.init(late: LateCalls(), script)
    }

    /// Marks ``usedHelper``.
    func resolvedByHelper() {
        usedHelper.mark()
    }

    private init(
        late: LateCalls, _ script: @escaping @Sendable (@escaping Resolve, @escaping Reject) throws -> Void
    ) {
        self.late = late
        self.script = script
    }

    /// A thenable whose script may keep calls for later (`late.add { ... }`): the check makes them once the promise
    /// has settled, so that they come after what the script did at once, every time, on a loaded machine too.
    static func withLateCalls(
        _ script: @escaping @Sendable (@escaping Resolve, @escaping Reject, _ late: LateCalls) throws -> Void
    ) -> ScriptedThenable {
        let late = LateCalls()
        return ScriptedThenable(late: late) { resolve, reject in try script(resolve, reject, late) }
    }

    func then(_ resolvePromise: @escaping Resolve, _ rejectPromise: @escaping Reject) throws {
        calls.record(calls.count + 1)
        try script(resolvePromise, rejectPromise)
    }

    /// Fulfils with `value` at once.
    static func fulfilling(_ value: Sentinel) -> ScriptedThenable {
        ScriptedThenable { resolve, _ in resolve(.value(value)) }
    }

    /// Fulfils with `value` from another thread, a little later.
    static func fulfillingLater(_ value: Sentinel) -> ScriptedThenable {
        ScriptedThenable { resolve, _ in
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) { resolve(.value(value)) }
        }
    }

    /// Rejects with `error` at once.
    static func rejecting(_ error: SentinelError) -> ScriptedThenable {
        ScriptedThenable { _, reject in reject(error) }
    }

    /// Rejects with `error` from another thread, a little later.
    static func rejectingLater(_ error: SentinelError) -> ScriptedThenable {
        ScriptedThenable { _, reject in
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) { reject(error) }
        }
    }
}

extension ClauseContext {
    /// Runs `check` on a promise resolved with a fresh thenable in each way a thenable can reach a promise: returned
    /// from onFulfilled, returned from onRejected, and passed to ``PromiseAdapter/assimilated(_:)``.
    func eachAssimilation(
        _ makeThenable: () -> ScriptedThenable,
        _ check: (_ promise: ErasedPromise, _ thenable: ScriptedThenable) throws -> Void
    ) throws {
        for way in assimilationWays {
            try inCase(way.name) {
                let thenable = makeThenable()
                try checkNoting(way.promise(thenable), thenable, check)
            }
        }
    }

    /// The ways a thenable reaches a promise, each named as its case and with the promise it resolves: returned from
    /// onFulfilled, returned from onRejected, and passed to ``PromiseAdapter/assimilated(_:)``.
    var assimilationWays: [(name: String, promise: (ScriptedThenable) -> ErasedPromise)] {
        [
            (
                "returned from onFulfilled",
                { thenable in
                    self.then(self.adapter.fulfilled(Sentinel(0)), onFulfilled: { _ in .assimilate(thenable) })
                }
            ),
            (
                "returned from onRejected",
                { thenable in
                    self.then(self.adapter.rejected(SentinelError(0)), onRejected: { _ in .assimilate(thenable) })
                }
            ),
            ("assimilated directly", { thenable in self.adapter.assimilated(thenable) }),
        ]
    }

    /// Runs `check`, then notes whether the thenable went through ``Assimilation/resolve(_:_:)``.
    func checkNoting(
        _ promise: ErasedPromise, _ thenable: ScriptedThenable,
        _ check: (_ promise: ErasedPromise, _ thenable: ScriptedThenable) throws -> Void
    ) throws {
        defer { if thenable.usedHelper.isSet { cases.noteAssimilationHelper() } }
        try check(promise, thenable)
    }

    /// Checks the promise ends as `expected` and keeps it, also once the thenable's late calls are made.
    func expectAssimilated(_ promise: ErasedPromise, _ expected: Outcome, late: LateCalls? = nil) throws {
        let recorder = observe(promise)
        try expect(recorder, expected)
        late?.make()
        try expect.only(recorder, expected)
    }

    /// Named scripts, each checked in every way of assimilation.
    func eachScript(_ scripts: [(String, () -> ScriptedThenable, Outcome)]) throws {
        for (name, make, expected) in scripts {
            try inCase(name) {
                try eachAssimilation(make) { promise, thenable in
                    try expectAssimilated(promise, expected, late: thenable.late)
                }
            }
        }
    }
}

private let one = Sentinel(1)
private let two = Sentinel(2)
private let error1 = SentinelError(1)
private let error2 = SentinelError(2)

let thenableClauses: [Clause] = [
    Clause(
        "2.3.3.1", "then is taken from x once",
        "Let then be x.then: the procedure takes x's then once and calls it once, with resolvePromise and "
            + "rejectPromise (in Swift, the thenable's then method is called exactly once); the promise waits for them.",
        requires: .assimilation,
        waitsForAbsence: true,
        cases: ["then called once", "pending while the thenable has not called back"]
    ) { context in
        try context.inCase("then called once") {
            try context.eachAssimilation({ .fulfilling(one) }) { promise, thenable in
                try context.expectAssimilated(promise, .fulfilled(one))
                try context.expect(thenable.calls.count == 1, "then was called \(thenable.calls.count) times")
            }
        }
        try context.inCase("pending while the thenable has not called back") {
            try context.eachAssimilation({ ScriptedThenable { _, _ in } }) { promise, thenable in
                // An implementation may call `then` from another thread; wait for the call, then for a second one.
                try thenable.calls.wait(for: 1, "the thenable's then to be called", in: context.clock)
                try context.expect.pending(promise)
                try context.expect(thenable.calls.count == 1, "then was called \(thenable.calls.count) times")
            }
        }
    },
    Clause(
        "2.3.3.2", "retrieving then throws",
        "If retrieving the property x.then results in a thrown exception e, reject the promise with e as the reason.",
        notMeaningful:
            "A Swift thenable's then is a protocol method, not a property looked up at run time: retrieving it cannot "
            + "throw (a throw from calling it is 2.3.3.3.4)."
    ),
    Clause(
        "2.3.3.3.1", "resolvePromise(y) resolves with y",
        "If/when resolvePromise is called with a value y, resolve the promise with y (assimilating y if it is a "
            + "thenable in turn).",
        requires: .assimilation,
        waitsForAbsence: true,
        cases: [
            "y a value, at once", "y a value, later from another thread", "y a thenable fulfilling at once",
            "y a thenable fulfilling later", "y a thenable rejecting at once", "y a thenable rejecting later",
            "y a thenable of a thenable", "y a thenable whose then throws",
        ]
    ) { context in
        try context.eachScript([
            ("y a value, at once", { .fulfilling(one) }, .fulfilled(one)),
            ("y a value, later from another thread", { .fulfillingLater(one) }, .fulfilled(one)),
            (
                "y a thenable fulfilling at once",
                { ScriptedThenable { resolve, _ in resolve(.thenable(ScriptedThenable.fulfilling(two))) } },
                .fulfilled(two)
            ),
            (
                "y a thenable fulfilling later",
                { ScriptedThenable { resolve, _ in resolve(.thenable(ScriptedThenable.fulfillingLater(two))) } },
                .fulfilled(two)
            ),
            (
                "y a thenable rejecting at once",
                { ScriptedThenable { resolve, _ in resolve(.thenable(ScriptedThenable.rejecting(error2))) } },
                .rejected(error2)
            ),
            (
                "y a thenable rejecting later",
                { ScriptedThenable { resolve, _ in resolve(.thenable(ScriptedThenable.rejectingLater(error2))) } },
                .rejected(error2)
            ),
            (
                "y a thenable of a thenable",
                {
                    ScriptedThenable { resolve, _ in
                        resolve(
                            .thenable(
                                ScriptedThenable { inner, _ in inner(.thenable(ScriptedThenable.fulfillingLater(two))) }
                            ))
                    }
                },
                .fulfilled(two)
            ),
            (
                "y a thenable whose then throws",
                { ScriptedThenable { resolve, _ in resolve(.thenable(ScriptedThenable { _, _ in throw error2 })) } },
                .rejected(error2)
            ),
        ])
    },
    Clause(
        "2.3.3.3.2", "rejectPromise(r) rejects with r",
        "If/when rejectPromise is called with a reason r, reject the promise with r.",
        requires: .assimilation,
        waitsForAbsence: true,
        cases: ["at once", "later from another thread"]
    ) { context in
        try context.eachScript([
            ("at once", { .rejecting(error1) }, .rejected(error1)),
            ("later from another thread", { .rejectingLater(error1) }, .rejected(error1)),
        ])
    },
    Clause(
        "2.3.3.3.3", "the first callback call wins",
        "If resolvePromise and rejectPromise are both called, or one is called more than once, the first call takes "
            + "precedence and the others are ignored.",
        requires: .assimilation,
        waitsForAbsence: true,
        cases: [
            "resolve then reject", "reject then resolve", "resolve twice", "reject twice",
            "resolve at once, reject later", "reject at once, resolve later",
            "resolve with a slow thenable, then with a value", "both called from racing threads",
        ]
    ) { context in
        try context.eachScript([
            (
                "resolve then reject",
                {
                    ScriptedThenable { resolve, reject in
                        resolve(.value(one))
                        reject(error2)
                    }
                }, .fulfilled(one)
            ),
            (
                "reject then resolve",
                {
                    ScriptedThenable { resolve, reject in
                        reject(error1)
                        resolve(.value(two))
                    }
                }, .rejected(error1)
            ),
            (
                "resolve twice",
                {
                    ScriptedThenable { resolve, _ in
                        resolve(.value(one))
                        resolve(.value(two))
                    }
                }, .fulfilled(one)
            ),
            (
                "reject twice",
                {
                    ScriptedThenable { _, reject in
                        reject(error1)
                        reject(error2)
                    }
                }, .rejected(error1)
            ),
            (
                "resolve at once, reject later",
                {
                    ScriptedThenable.withLateCalls { resolve, reject, late in
                        resolve(.value(one))
                        late.add { reject(error2) }
                    }
                }, .fulfilled(one)
            ),
            (
                "reject at once, resolve later",
                {
                    ScriptedThenable.withLateCalls { resolve, reject, late in
                        reject(error1)
                        late.add { resolve(.value(two)) }
                    }
                }, .rejected(error1)
            ),
            (
                "resolve with a slow thenable, then with a value",
                {
                    ScriptedThenable { resolve, _ in
                        resolve(.thenable(ScriptedThenable.fulfillingLater(one)))
                        resolve(.value(two))
                    }
                }, .fulfilled(one)
            ),
        ])
        try context.inCase("both called from racing threads") {
            // Each way of assimilation races rounds with a third of the race budget: in each round a new thenable
            // calls resolvePromise from two racing threads and rejectPromise from two others, and the promise it
            // resolves must settle once.
            let deadline = context.clock.deadline
            let racing = try RacingThreads.with(parties: 4) { threads in
                for way in context.assimilationWays {
                    try context.inCase(way.name) {
                        var unswept: [(round: Int, recorder: Recorder<Outcome>)] = []
                        func check(_ round: Int, _ recorder: Recorder<Outcome>) throws {
                            try context.expect(
                                recorder.count == 1,
                                "round \(round): handler called \(recorder.count) times: \(recorder.snapshot.prefix(10))"
                            )
                        }
                        try context.racing.rounds(minimum: 20, share: 1.0 / 3) { round in
                            let thenable = ScriptedThenable { resolve, reject in
                                // A party that does not finish by the deadline leaves the promise unsettled: the wait
                                // below fails.
                                _ = threads.race(until: deadline) { party in
                                    if party.isMultiple(of: 2) {
                                        resolve(.value(Sentinel(party)))
                                    } else {
                                        reject(SentinelError(party))
                                    }
                                }
                            }
                            try context.checkNoting(way.promise(thenable), thenable) { promise, _ in
                                let recorder = context.observe(promise)
                                try recorder.wait(for: 1, "the promise of round \(round)", in: context.clock)
                                try check(round, recorder)
                                unswept.append((round, recorder))
                            }
                        }
                        context.clock.waitGrace()
                        for (round, recorder) in unswept { try check(round, recorder) }
                    }
                }
                return threads
            }
            // A thenable's `then` called again once every round is over asks for a round no party runs.
            context.clock.waitGrace()
            try context.expect(
                racing.roundsAfterStop == 0,
                "a thenable's then was called \(racing.roundsAfterStop) more times after the promise it resolves had "
                    + "settled and its case had ended (2.3.3.3: then is called once)")
        }
    },
    Clause(
        "2.3.3.3.4.1", "a throw after a callback call is ignored",
        "If calling then throws after resolvePromise or rejectPromise was called, ignore the throw.",
        requires: .assimilation,
        waitsForAbsence: true,
        cases: ["resolve then throw", "reject then throw", "resolve with a slow thenable then throw"]
    ) { context in
        try context.eachScript([
            (
                "resolve then throw",
                {
                    ScriptedThenable { resolve, _ in
                        resolve(.value(one))
                        throw error2
                    }
                }, .fulfilled(one)
            ),
            (
                "reject then throw",
                {
                    ScriptedThenable { _, reject in
                        reject(error1)
                        throw error2
                    }
                }, .rejected(error1)
            ),
            (
                "resolve with a slow thenable then throw",
                {
                    ScriptedThenable { resolve, _ in
                        resolve(.thenable(ScriptedThenable.fulfillingLater(one)))
                        throw error2
                    }
                }, .fulfilled(one)
            ),
        ])
    },
    Clause(
        "2.3.3.3.4.2", "a throw before any callback call rejects",
        "If calling then throws e before resolvePromise or rejectPromise was called, reject the promise with e.",
        requires: .assimilation,
        waitsForAbsence: true,
        cases: ["throw at once", "throw, then resolve later", "throw, then reject later"]
    ) { context in
        try context.eachScript([
            ("throw at once", { ScriptedThenable { _, _ in throw error1 } }, .rejected(error1)),
            (
                "throw, then resolve later",
                {
                    ScriptedThenable.withLateCalls { resolve, _, late in
                        late.add { resolve(.value(two)) }
                        throw error1
                    }
                }, .rejected(error1)
            ),
            (
                "throw, then reject later",
                {
                    ScriptedThenable.withLateCalls { _, reject, late in
                        late.add { reject(error2) }
                        throw error1
                    }
                }, .rejected(error1)
            ),
        ])
    },
    Clause(
        "2.3.3.4", "then is not a function",
        "If then is not a function, fulfil the promise with x.",
        notMeaningful:
            "A Swift value either conforms to Thenable, whose then is always a method, or does not, and the handler "
            + "says which (HandlerResult.assimilate or .fulfill): no value has a then that is not a function. A plain "
            + "value is 2.3.4."
    ),
    Clause(
        "2.3.4", "a plain value fulfils",
        "If x is not an object or function (in Swift: neither a promise nor a thenable, a plain value), fulfil the "
            + "promise with x.",
        waitsForAbsence: false,
        cases: [
            "returned from onFulfilled, already-fulfilled", "returned from onFulfilled, immediately-fulfilled",
            "returned from onRejected, already-rejected", "returned from onRejected, immediately-rejected",
            "the value the handler was given",
        ]
    ) { context in
        try context.inCase("returned from onFulfilled, already-fulfilled") {
            let derived = context.then(context.adapter.fulfilled(one), onFulfilled: { _ in .fulfill(two) })
            try context.expect.fulfilled(derived, with: two, "the derived promise")
        }
        try context.inCase("returned from onFulfilled, immediately-fulfilled") {
            let pending = context.pending()
            let derived = context.then(pending.promise, onFulfilled: { _ in .fulfill(two) })
            pending.fulfill(one)
            try context.expect.fulfilled(derived, with: two, "the derived promise")
        }
        try context.inCase("returned from onRejected, already-rejected") {
            let derived = context.then(context.adapter.rejected(error1), onRejected: { _ in .fulfill(two) })
            try context.expect.fulfilled(derived, with: two, "the derived promise")
        }
        try context.inCase("returned from onRejected, immediately-rejected") {
            let pending = context.pending()
            let derived = context.then(pending.promise, onRejected: { _ in .fulfill(two) })
            pending.reject(error1)
            try context.expect.fulfilled(derived, with: two, "the derived promise")
        }
        try context.inCase("the value the handler was given") {
            let derived = context.then(context.adapter.fulfilled(one), onFulfilled: { .fulfill($0) })
            try context.expect.fulfilled(derived, with: one, "the derived promise")
        }
    },
]
