/// The checks of a clause, each of which fails the running case (``CaseRunner/failure(_:stalled:)``) when what it
/// expects is not what was seen. A clause calls it as `expect`: `try expect(condition, "message")`,
/// `try expect(recorder, .fulfilled(value))`, `try expect.only(recorder, outcome)`, `try expect.pending(promise)`.
struct Expectations: Sendable {
    /// The cases whose running one a failed check fails.
    let cases: CaseRunner
    /// The clock whose deadline bounds each wait for an outcome, and whose grace wait lets a misbehaviour show.
    let clock: CaseClock
    /// The adapter, through which a check observes a promise.
    let front: AdapterFront

    /// Fails with `message` unless `condition` holds.
    func callAsFunction(_ condition: Bool, _ message: @autoclosure () -> String) throws {
        if !condition { throw cases.failure(message()) }
    }

    /// Waits for the first outcome `recorder` sees and checks it.
    func callAsFunction(_ recorder: Recorder<Outcome>, _ expected: Outcome, _ what: String = "the promise") throws {
        try recorder.wait(for: 1, "\(what) to be \(expected)", in: clock)
        let seen = recorder.snapshot[0]
        try callAsFunction(seen.same(as: expected), "expected \(what) to be \(expected), but it was \(seen)")
    }

    /// Fails when `seen` is a rejection whose reason is nested in more than ``ErrorBoxes/limit`` boxes: casting it
    /// would recurse once per box (``ErrorBoxes``). The deep-chain clauses call it on a chain's end before they compare
    /// it; the other clauses' chains are a few links long, and a reason nested a few boxes deep is still the reason.
    func castable(_ seen: Outcome, _ what: String) throws {
        if case .rejected(let error) = seen, let excess = ErrorBoxes.excess(error, in: what) {
            throw cases.failure(excess)
        }
    }

    /// Checks that `promise` ends fulfilled with `value` (its first outcome).
    func fulfilled(_ promise: ErasedPromise, with value: Sentinel, _ what: String = "the promise") throws {
        try callAsFunction(front.observe(promise), .fulfilled(value), what)
    }

    /// Checks that `promise` ends rejected with `error` (its first outcome).
    func rejected(_ promise: ErasedPromise, with error: SentinelError, _ what: String = "the promise") throws {
        try callAsFunction(front.observe(promise), .rejected(error), what)
    }

    /// Checks that `promise` ends rejected, with any reason.
    func rejected(_ promise: ErasedPromise, _ what: String = "the promise") throws {
        let recorder = front.observe(promise)
        try recorder.wait(for: 1, "\(what) to be rejected", in: clock)
        let seen = recorder.snapshot[0]
        try callAsFunction(seen.isRejected, "expected \(what) to be rejected, but it was \(seen)")
    }

    /// Waits for the first outcome, lets misbehaviour show, and checks every outcome seen is `expected`.
    func only(_ recorder: Recorder<Outcome>, _ expected: Outcome, _ what: String = "the promise") throws {
        try callAsFunction(recorder, expected, what)
        clock.waitGrace()
        for seen in recorder.snapshot where !seen.same(as: expected) {
            throw cases.failure("\(what) was \(expected), then \(seen)")
        }
    }

    /// Checks that `promise` is still pending after the grace period.
    func pending(_ promise: ErasedPromise, _ what: String = "the promise") throws {
        let recorder = front.observe(promise)
        clock.waitGrace()
        let seen = recorder.snapshot
        try callAsFunction(seen.isEmpty, "expected \(what) to be pending, but it was \(seen[0])")
    }
}
