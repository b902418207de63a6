// ModelComparison.swift: comparing a run with what the model requires, rule by rule.
//
// Each promise, handler and `all` is judged against the model given what the *implementation's* other promises did
// (the run's facts), in the order the program makes them: a promise that went wrong is reported once, with the rule
// it broke, and its dependants are judged on what it really was.

/// One thing a run did that the model forbids.
struct Violation: Sendable, CustomStringConvertible {
    /// The clause id of the rule broken (`2.2.6.1`, `swift.combinator.all`, ...).
    var rule: String
    /// What the model requires.
    var required: String
    /// What the promise did.
    var did: String

    var description: String { "\(rule): \(required); \(did)" }
}

/// Compares a run's log (``RunLog``) with what the model requires, rule by rule, and lists the violations.
enum ModelComparison {
    typealias Model = PromisesAPlus

    /// Every violation in `log`, a run of `program`.
    ///
    /// `orderUnqueued`: whether handlers with no queue are held to 2.2.6's order (the adapter does not declare its
    /// default scheduling concurrent).
    static func violations(_ program: Program, _ log: RunLog, orderUnqueued: Bool) -> [Violation] {
        let facts = log.facts
        var found: [Violation] = []
        for (node, make) in program.makes where log.made.contains(node) {
            found += observerViolations(node, log)
            switch make {
            case .all(let inputs):
                found += allViolations(node, inputs, log, facts)
                continue
            case .then(let source, _, let onFulfilled, let onRejected):
                found += handlerViolations(node, source, onFulfilled, onRejected, log, facts)
            default: break
            }
            let expectation = Model.expectation(of: node, make, facts: facts)
            let state = facts.state(node)
            if !expectation.allows(state) {
                found.append(
                    Violation(
                        rule: expectation.rule,
                        required: "p\(node) must be " + expectation.allowed.map(\.description).joined(separator: " or ")
                            + " (\(expectation.why))",
                        did: "p\(node) is \(state)"))
            }
        }
        found += orderViolations(program, log, orderUnqueued: orderUnqueued)
        // A handler run inside a call changes what every later step sees (and when): it is the one to report first.
        found = found.filter { $0.rule == "2.2.4" } + found.filter { $0.rule != "2.2.4" }
        // A run stopped at the event limit: what kept going is the first thing to report.
        if log.stopped, let runaway = runawayViolation(log) { found.insert(runaway, at: 0) }
        if !log.leaked.isEmpty {
            let names = log.leaked.map { "p\($0)" }.joined(separator: ", ")
            found.append(
                Violation(
                    rule: "swift.release",
                    required: "every promise is freed once the program lets go of it (none is held by a pending cycle)",
                    did: "\(names) \(log.leaked.count == 1 ? "is" : "are") still alive"))
        }
        return found
    }

    /// A promise settles once (A+ 2.1.2, 2.1.3): its observer runs once, and not inside a call (2.2.4).
    private static func observerViolations(_ node: Int, _ log: RunLog) -> [Violation] {
        let seen = log.observed[node] ?? []
        var found: [Violation] = []
        if let first = seen.first, let other = seen.dropFirst().first {
            let rule = settledAgainRule(first.state, other.state)
            found.append(
                Violation(
                    rule: rule, required: "p\(node) settles once and calls each handler once",
                    did: "its observer saw \(first.state), then \(other.state)"))
        }
        if seen.contains(where: \.insideCall) {
            found.append(
                Violation(
                    rule: "2.2.4",
                    required: "a handler of p\(node) runs only once the call that registered it, or settled "
                        + "the promise, has returned",
                    did: "its observer ran inside a call into the implementation"))
        }
        return found
    }

    /// The rule a promise breaks when its observer, having seen `first`, sees `other`: it called its handlers again
    /// (2.2.2.3, 2.2.3.3), changed its value or reason (2.1.2.2, 2.1.3.2), or changed state (2.1.2.1, 2.1.3.1).
    private static func settledAgainRule(_ first: PromisesAPlus.State, _ other: PromisesAPlus.State) -> String {
        switch (first, other) {
        case (.fulfilled, .fulfilled): other == first ? "2.2.2.3" : "2.1.2.2"
        case (.fulfilled, _): "2.1.2.1"
        case (_, .rejected): other == first ? "2.2.3.3" : "2.1.3.2"
        default: "2.1.3.1"
        }
    }

    /// What kept a run stopped at ``ProgramRun/eventLimit`` going, with the count: the promise that settled most often
    /// (a promise that settles again is what calls its handlers again), else the handler called most often, else the
    /// `all` that completed most often.
    private static func runawayViolation(_ log: RunLog) -> Violation? {
        let stopped =
            "; the run was stopped at \(StackGrowth.grouped(ProgramRun.eventLimit)) events (the program's handlers "
            + "then did nothing more, and its later steps were not performed)"
        if let settled = log.observed.max(by: { $0.value.count < $1.value.count }), settled.value.count > 1,
            let first = settled.value.first?.state
        {
            let other = settled.value.dropFirst().first { $0.state != first }?.state ?? first
            return Violation(
                rule: settledAgainRule(first, other),
                required: "p\(settled.key) settles once and calls each handler once",
                did: "p\(settled.key) settled \(StackGrowth.grouped(settled.value.count)) times" + stopped)
        }
        if let called = log.handlerCalls.max(by: { $0.value.count < $1.value.count }), called.value.count > 1,
            let first = called.value.first
        {
            return Violation(
                rule: first.fulfilled ? "2.2.2.3" : "2.2.3.3", required: "the handler of p\(called.key) runs once",
                did: "it ran \(StackGrowth.grouped(called.value.count)) times" + stopped)
        }
        guard let completed = log.completions.max(by: { $0.value.count < $1.value.count }), completed.value.count > 1
        else { return nil }
        return Violation(
            rule: "swift.combinator.all", required: "all of p\(completed.key) completes once",
            did: "it completed \(StackGrowth.grouped(completed.value.count)) times" + stopped)
    }

    /// `then`'s handlers (A+ 2.2.2, 2.2.3, 2.2.4): the one that matches the source's state runs once, with the value
    /// or reason, outside any call into the implementation; the other never runs.
    private static func handlerViolations(
        _ node: Int, _ source: Int, _ onFulfilled: Program.Reaction?, _ onRejected: Program.Reaction?,
        _ log: RunLog, _ facts: Model.Facts
    ) -> [Violation] {
        let calls = log.handlerCalls[node] ?? []
        let expected = Model.handlerInput(
            source: source, onFulfilled: onFulfilled, onRejected: onRejected, facts: facts)
        let sourceState = facts.state(source)
        func name(_ fulfilled: Bool) -> String { fulfilled ? "onFulfilled" : "onRejected" }
        var found: [Violation] = []
        if let wrong = calls.first(where: { $0.fulfilled != expected?.fulfilled }) {
            found.append(
                Violation(
                    rule: wrong.fulfilled ? "2.2.2.2" : "2.2.3.2",
                    required: "\(name(wrong.fulfilled)) of p\(node) runs only once p\(source) is "
                        + (wrong.fulfilled ? "fulfilled" : "rejected"),
                    did: "it ran with \(wrong.input) while p\(source) is \(sourceState)"))
        }
        if let expected {
            let matching = calls.filter { $0.fulfilled == expected.fulfilled }
            let rules = expected.fulfilled ? ("2.2.2.1", "2.2.2.3") : ("2.2.3.1", "2.2.3.3")
            if matching.isEmpty {
                found.append(
                    Violation(
                        rule: rules.0, required: "\(name(expected.fulfilled)) of p\(node) runs with \(expected.input)",
                        did: "it never ran"))
            } else if let first = matching.first, !Model.matches(first.input, expected.input) {
                found.append(
                    Violation(
                        rule: rules.0, required: "\(name(expected.fulfilled)) of p\(node) runs with \(expected.input)",
                        did: "it ran with \(first.input)"))
            }
            if matching.count > 1 {
                found.append(
                    Violation(
                        rule: rules.1, required: "\(name(expected.fulfilled)) of p\(node) runs once",
                        did: "it ran \(matching.count) times"))
            }
        }
        if calls.contains(where: \.insideCall) {
            found.append(
                Violation(
                    rule: "2.2.4",
                    required:
                        "a handler of p\(node) runs only once the call that registered it, or settled p\(source), "
                        + "has returned",
                    did: "it ran inside a call into the implementation"))
        }
        return found
    }

    /// `all`'s completion: called once, with the values in input order or the first rejection's reason.
    private static func allViolations(
        _ node: Int, _ inputs: [Int], _ log: RunLog, _ facts: Model.Facts
    ) -> [Violation] {
        let calls = log.completions[node] ?? []
        guard let expected = Model.allExpectation(node, inputs, facts: facts) else {
            guard let first = calls.first else { return [] }
            return [
                Violation(
                    rule: "swift.combinator.all",
                    required: "all of p\(node) does not complete while an input is "
                        + "pending and none rejected", did: "it completed with \(first)")
            ]
        }
        let wanted = expected.allowed.map(\.description).joined(separator: " or ")
        guard let first = calls.first else {
            return [
                Violation(
                    rule: "swift.combinator.all",
                    required: "all of p\(node) completes with \(wanted) (\(expected.why))",
                    did: "it never completed")
            ]
        }
        var found: [Violation] = []
        let allows: (PromisesAPlus.AllResult) -> Bool = { seen in
            expected.allowed.contains { allowed in
                if case .failure = seen, case .failure(.anyReason) = allowed { return true }
                return seen == allowed
            }
        }
        if !allows(first) {
            found.append(
                Violation(
                    rule: "swift.combinator.all",
                    required: "all of p\(node) completes with \(wanted) (\(expected.why))",
                    did: "it completed with \(first)"))
        }
        if calls.count > 1 {
            found.append(
                Violation(
                    rule: "swift.combinator.all", required: "all of p\(node) completes once",
                    did: "it completed \(calls.count) times: " + calls.map(\.description).joined(separator: ", ")))
        }
        return found
    }

    /// A+ 2.2.6: the handlers of one promise run in the order of their `then` calls. The model holds it for handlers
    /// whose registrations are ordered (``ProgramRun/Registration/precedes(_:)``) and that run one at a time: on the
    /// same serial queue, or both with no queue unless the adapter declares that its default scheduling runs
    /// handlers concurrently (`orderUnqueued` false, ``PromiseAdapter/concurrentDefaultScheduling``).
    private static func orderViolations(_ program: Program, _ log: RunLog, orderUnqueued: Bool) -> [Violation] {
        var bySource: [Int: [(node: Int, queue: Int?)]] = [:]
        for (node, make) in program.makes {
            guard case .then(let source, let queue, _, _) = make, queue != nil || orderUnqueued else { continue }
            bySource[source, default: []].append((node, queue))
        }
        var found: [Violation] = []
        for source in bySource.keys.sorted() {
            let handlers = bySource[source]!.filter { log.registrations[$0.node] != nil }
            for first in handlers {
                for second in handlers where second.node != first.node && second.queue == first.queue {
                    guard let earlier = log.registrations[first.node], let later = log.registrations[second.node],
                        earlier.precedes(later), let ranFirst = log.handlerCalls[first.node]?.first,
                        let ranSecond = log.handlerCalls[second.node]?.first, ranSecond.sequence < ranFirst.sequence
                    else { continue }
                    let lane =
                        first.queue.map { "on q\($0)" }
                        ?? "with no queue (the implementation's default scheduling, which the adapter does not "
                        + "declare concurrent in `concurrentDefaultScheduling`)"
                    found.append(
                        Violation(
                            rule: ranFirst.fulfilled ? "2.2.6.1" : "2.2.6.2",
                            required: "the handler of p\(first.node) runs before that of p\(second.node): both are "
                                + "handlers of p\(source) \(lane), registered in that order",
                            did: "p\(second.node)'s ran first"))
                }
            }
        }
        return found
    }
}
