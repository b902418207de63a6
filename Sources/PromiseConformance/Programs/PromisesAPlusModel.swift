// PromisesAPlusModel.swift: Promises/A+ 1.1, and the suite's Swift clauses, as an executable model of a program.
//
// The model answers one question, rule by rule: given what the other promises of a program did, what must this
// promise (or handler, or combinator) do? Each answer names the rule it comes from, so that a departure is reported
// with the rule it breaks. The same questions, asked of the model's own answers step by step, predict a whole run
// (`predict`); asked of what a promise really did, they check it (`ModelComparison`): a promise that went wrong once is
// not blamed again for what its dependants then did.
//
// Where the spec leaves a choice, the model gives the constraint, not one answer: which of several inputs that
// settled during the same step a race takes, which order handlers of different promises or on different queues run
// in. Where the spec or every original fixes the choice, the model requires it: handlers of one promise run in `then`
// order on one serial queue and with no queue alike (unless the adapter declares its default concurrent), and a
// combinator takes the first in input order of the inputs settled when it was made (`first`). The choices left open,
// and why, are listed in the article "Testing your own promise type" ("Generated programs"). Steps are the model's
// clock: the driver waits for each step's work to end before it starts the next, so a promise settled in an earlier
// step settled first.

/// Promises/A+ as code: what each promise and handler of a ``Program`` must do.
enum PromisesAPlus {
    /// A promise's state (A+ 2.1).
    enum State: Hashable, Sendable, CustomStringConvertible {
        case pending
        case fulfilled(Int)
        case rejected(Reason)

        var isSettled: Bool { self != .pending }

        var description: String {
            switch self {
            case .pending: "pending"
            case .fulfilled(let value): "fulfilled with v\(value)"
            case .rejected(let reason): "rejected with \(reason)"
            }
        }
    }

    /// Why a promise was rejected.
    enum Reason: Hashable, Sendable, CustomStringConvertible {
        /// The program's error `eK`.
        case error(Int)
        /// The implementation's cancellation error (``PromiseAdapter/isCancellation(_:)``).
        case cancelled
        /// An error the implementation chooses: A+ 2.3.1's TypeError, `any`'s rejection once every input rejected.
        /// As an expectation it matches any reason.
        case anyReason
        /// An error that is none of the above (only ever seen, never expected).
        case other(String)

        var description: String {
            switch self {
            case .error(let id): "e\(id)"
            case .cancelled: "the cancellation error"
            case .anyReason: "an error"
            case .other(let text): text
            }
        }
    }

    /// What `all`'s completion is called with.
    enum AllResult: Hashable, Sendable, CustomStringConvertible {
        case values([Int])
        case failure(Reason)

        var description: String {
            switch self {
            case .values(let values): "[" + values.map { "v\($0)" }.joined(separator: ", ") + "]"
            case .failure(let reason): "failure \(reason)"
            }
        }
    }

    /// What a promise must end as, and the rule that says so.
    struct Expectation: Sendable {
        /// The states allowed (one, except where the spec leaves a choice).
        var allowed: [State]
        var rule: String
        var why: String

        func allows(_ state: State) -> Bool {
            allowed.contains { PromisesAPlus.matches(state, $0) }
        }
    }

    /// Whether a seen state is the expected one; an expected ``Reason/anyReason`` matches any rejection.
    static func matches(_ seen: State, _ expected: State) -> Bool {
        if case .rejected(.anyReason) = expected, case .rejected = seen { return true }
        return seen == expected
    }

    /// What the model reads: the state each promise is in, the step in which it settled, the settlement calls made on
    /// each pending promise in the order they were made, and which handlers ran. Filled in by ``predict(_:)`` from the
    /// model's own answers, or by the checker from what the implementation did.
    struct Facts: Sendable {
        var states: [Int: State] = [:]
        var settledAt: [Int: Int] = [:]
        var settleCalls: [Int: [SettleCall]] = [:]
        /// The promises made so far (a promise made by a handler exists once its handler ran).
        var made: Set<Int> = []
        /// The step in which each promise was made.
        var madeAt: [Int: Int] = [:]

        func state(_ node: Int) -> State { states[node] ?? .pending }
    }

    /// A call of a pending promise's fulfil, reject or cancel function.
    enum SettleCall: Hashable, Sendable {
        case fulfil(Int)
        case reject(Int)
        case cancel

        var state: State {
            switch self {
            case .fulfil(let value): .fulfilled(value)
            case .reject(let error): .rejected(.error(error))
            case .cancel: .rejected(.cancelled)
            }
        }
    }

    // MARK: Promises

    /// What promise `node`, made by `make`, must end as, given `facts` about the others.
    static func expectation(of node: Int, _ make: Program.Make, facts: Facts) -> Expectation {
        switch make {
        case .pending, .cancellable:
            return settledByCalls(facts.settleCalls[node] ?? [])
        case .fulfilled(let value):
            return Expectation(allowed: [.fulfilled(value)], rule: "2.1.2.1", why: "made fulfilled with v\(value)")
        case .rejected(let error):
            return Expectation(
                allowed: [.rejected(.error(error))], rule: "2.1.3.1", why: "made rejected with e\(error)")
        case .thenable(let spec):
            return thenableExpectation(spec, why: "it assimilated a thenable")
        case .then(let source, _, let onFulfilled, let onRejected):
            return thenExpectation(source: source, onFulfilled: onFulfilled, onRejected: onRejected, facts: facts)
        case .race(let inputs):
            return raceExpectation(node, inputs, facts: facts)
        case .any(let inputs):
            return anyExpectation(node, inputs, facts: facts)
        case .all:
            return Expectation(allowed: [.pending], rule: "swift.combinator.all", why: "all's node is its completion")
        }
    }

    /// A pending promise settles as the first call of its fulfil, reject or cancel function says, and no later call
    /// changes it (A+ 2.1.1, 2.1.2, 2.1.3).
    static func settledByCalls(_ calls: [SettleCall]) -> Expectation {
        guard let first = calls.first else {
            return Expectation(allowed: [.pending], rule: "2.1.1.1", why: "nothing settled it")
        }
        let rule =
            switch first {
            case .fulfil: "2.1.2.1"
            case .reject: "2.1.3.1"
            case .cancel: "swift.cancel"
            }
        let later = calls.count > 1 ? ", and no later call changes it" : ""
        return Expectation(
            allowed: [first.state], rule: rule, why: "its first settlement call made it \(first.state)\(later)")
    }

    /// A thenable's promise settles as the thenable's last level does, however deep and however noisy (A+ 2.3.3.3).
    static func thenableExpectation(_ spec: Program.ThenableSpec, why: String) -> Expectation {
        let (state, rule): (State, String) =
            switch spec.ending {
            case .fulfil(let value): (.fulfilled(value), spec.noisy ? "2.3.3.3.3" : "2.3.3.3.1")
            case .reject(let error): (.rejected(.error(error)), spec.noisy ? "2.3.3.3.3" : "2.3.3.3.2")
            }
        return Expectation(allowed: [state], rule: rule, why: "\(why) (\(spec)) that ends \(state)")
    }

    /// The promise `then` returned (A+ 2.2.7): pending until its source settles; then passed on unchanged when the
    /// matching handler is `_` (2.2.7.3, 2.2.7.4), or resolved with what the handler returned (2.2.7.1, 2.2.7.2, 2.3).
    static func thenExpectation(
        source: Int, onFulfilled: Program.Reaction?, onRejected: Program.Reaction?, facts: Facts
    ) -> Expectation {
        let sourceState = facts.state(source)
        let reaction: Program.Reaction?
        switch sourceState {
        case .pending:
            return Expectation(allowed: [.pending], rule: "2.2.2.2", why: "its source p\(source) is pending")
        case .fulfilled:
            reaction = onFulfilled
            if reaction == nil {
                return Expectation(
                    allowed: [sourceState], rule: "2.2.7.3", why: "p\(source) is \(sourceState) and onFulfilled is _")
            }
        case .rejected(let reason):
            reaction = onRejected
            if reaction == nil {
                return Expectation(
                    allowed: [sourceState], rule: reason == .cancelled ? "swift.cancel" : "2.2.7.4",
                    why: "p\(source) is \(sourceState) and onRejected is _")
            }
        }
        let handler = "the handler (p\(source) is \(sourceState))"
        switch reaction!.result {
        case .value(let value):
            return Expectation(allowed: [.fulfilled(value)], rule: "2.2.7.1", why: "\(handler) returned v\(value)")
        case .throwing(let error):
            return Expectation(allowed: [.rejected(.error(error))], rule: "2.2.7.2", why: "\(handler) threw e\(error)")
        case .adopt(let other):
            let adopted = facts.state(other)
            let rule =
                switch adopted {
                case .pending: "2.3.2.1"
                case .fulfilled: "2.3.2.2"
                case .rejected: "2.3.2.3"
                }
            return Expectation(
                allowed: [adopted], rule: rule, why: "\(handler) returned p\(other), which is \(adopted)")
        case .adoptSelf:
            return Expectation(
                allowed: [.rejected(.anyReason)], rule: "2.3.1", why: "\(handler) returned the promise itself")
        case .thenable(let spec):
            return thenableExpectation(spec, why: "\(handler) returned a thenable")
        }
    }

    /// The inputs of combinator `node` that may come first, by step (the driver finishes each step before the next,
    /// so an input settled in an earlier step settled first; inputs settled during the same step may have settled in
    /// either order).
    ///
    /// The combinator sees every input settled before it was made as settled when it was made, and of those the first
    /// in input order comes first: it registers on its inputs in that order, as PromiseKit's `race` and `when`,
    /// Google's `race` and `all`, Bolts' `whenAny` and JavaScript's `Promise.race` and `Promise.any` do. An input
    /// settled during the step that made the combinator may have settled before it or after: it may come first only
    /// where it comes before, in input order, the first input settled in an earlier step.
    static func first(_ inputs: [Int], of node: Int, where include: (State) -> Bool, facts: Facts) -> [Int] {
        let made = facts.madeAt[node] ?? 0
        func seenAt(_ input: Int) -> Int? { facts.settledAt[input].map { max($0, made) } }
        let settled = inputs.filter { include(facts.state($0)) }
        guard let earliest = settled.compactMap(seenAt).min() else { return [] }
        let candidates = settled.filter { seenAt($0) == earliest }  // in input order
        // Seen when made: the inputs up to the first settled in an earlier step (those before it settled in the
        // make's step, perhaps before the make).
        guard earliest == made,
            let firstBefore = candidates.firstIndex(where: { (facts.settledAt[$0] ?? made) < made })
        else { return candidates }
        return Array(candidates[...firstBefore])
    }

    /// `race` settles like the first of its inputs to settle, and stays pending while none has.
    static func raceExpectation(_ node: Int, _ inputs: [Int], facts: Facts) -> Expectation {
        let first = first(inputs, of: node, where: \.isSettled, facts: facts)
        guard !first.isEmpty else {
            return Expectation(allowed: [.pending], rule: "swift.combinator.race", why: "no input has settled")
        }
        return Expectation(
            allowed: first.map { facts.state($0) }, rule: "swift.combinator.race",
            why: "the first of its inputs to settle: "
                + first.map { "p\($0) \(facts.state($0))" }.joined(separator: " or "))
    }

    /// `any` fulfils like the first of its inputs to fulfil; rejects, with an error of its choice, once every input
    /// rejected (at once when it has none); stays pending otherwise.
    static func anyExpectation(_ node: Int, _ inputs: [Int], facts: Facts) -> Expectation {
        let fulfilled = first(
            inputs, of: node, where: { if case .fulfilled = $0 { true } else { false } }, facts: facts)
        if !fulfilled.isEmpty {
            return Expectation(
                allowed: fulfilled.map { facts.state($0) }, rule: "swift.combinator.any",
                why: "the first input to fulfil: " + fulfilled.map { "p\($0)" }.joined(separator: " or "))
        }
        if inputs.allSatisfy({ if case .rejected = facts.state($0) { true } else { false } }) {
            return Expectation(
                allowed: [.rejected(.anyReason)], rule: "swift.combinator.any",
                why: inputs.isEmpty ? "it has no input" : "every input rejected")
        }
        return Expectation(
            allowed: [.pending], rule: "swift.combinator.any", why: "no input fulfilled, not all rejected")
    }

    /// What `all`'s completion must be called with, once (nil: not at all): every value in input order once every input
    /// fulfilled, or the reason of the first input to reject, whichever came first (either, when both came during the
    /// same step).
    static func allExpectation(_ node: Int, _ inputs: [Int], facts: Facts) -> (allowed: [AllResult], why: String)? {
        let states = inputs.map { facts.state($0) }
        var values: [Int] = []
        for state in states { if case .fulfilled(let value) = state { values.append(value) } }
        let made = facts.madeAt[node] ?? 0
        let fulfilledAt =
            values.count == inputs.count ? max(made, inputs.compactMap { facts.settledAt[$0] }.max() ?? made) : nil
        let rejected = first(inputs, of: node, where: { if case .rejected = $0 { true } else { false } }, facts: facts)
        let rejectedAt = rejected.first.flatMap { facts.settledAt[$0] }.map { max($0, made) }
        var allowed: [AllResult] = []
        if let fulfilledAt, rejectedAt.map({ fulfilledAt <= $0 }) ?? true { allowed.append(.values(values)) }
        if let rejectedAt, fulfilledAt.map({ rejectedAt <= $0 }) ?? true {
            for input in rejected {
                if case .rejected(let reason) = facts.state(input) { allowed.append(.failure(reason)) }
            }
        }
        guard !allowed.isEmpty else { return nil }
        return (
            allowed,
            rejected.isEmpty
                ? "every input fulfilled"
                : "the first input to reject: "
                    + rejected.map { "p\($0)" }.joined(separator: " or ")
                    + (allowed.count > rejected.count ? ", or all fulfilled" : "")
        )
    }

    // MARK: Handlers

    /// Which handler of `then` promise `node` must run, with what (nil: neither): the one that matches its source's
    /// state, once, if it is not `_` (A+ 2.2.2, 2.2.3).
    static func handlerInput(
        source: Int, onFulfilled: Program.Reaction?, onRejected: Program.Reaction?, facts: Facts
    ) -> (fulfilled: Bool, input: State, reaction: Program.Reaction)? {
        switch facts.state(source) {
        case .pending: return nil
        case .fulfilled(let value): return onFulfilled.map { (true, .fulfilled(value), $0) }
        case .rejected(let reason): return onRejected.map { (false, .rejected(reason), $0) }
        }
    }

    // MARK: Release

    /// The promises that must be freed once the program lets go of everything (the suite's `swift.release`): every
    /// promise made, except those that a cycle of pending promises holds. A pending promise holds the promises its
    /// handlers resolve (derived, adopting, combining it); a cycle of them (p1 adopts p2, which is derived from p1)
    /// never settles, and the spec does not ask a promise to find one that is not itself (A+ 2.3.1 only).
    static func mustBeReleased(_ program: Program, facts: Facts) -> Set<Int> {
        var holds: [Int: [Int]] = [:]
        for (node, make) in program.makes where facts.made.contains(node) {
            switch make {
            case .then(let source, _, let onFulfilled, let onRejected):
                holds[source, default: []].append(node)
                for reaction in [onFulfilled, onRejected] {
                    if case .adopt(let other)? = reaction?.result { holds[other, default: []].append(node) }
                    if case .adoptSelf? = reaction?.result { holds[node, default: []].append(node) }
                }
            case .race(let inputs), .any(let inputs):
                for input in inputs { holds[input, default: []].append(node) }
            default: break
            }
        }
        func reachable(from start: Int) -> Set<Int> {
            var seen: Set<Int> = []
            var stack = (holds[start] ?? []).filter { !facts.state($0).isSettled }
            while let next = stack.popLast() {
                guard seen.insert(next).inserted else { continue }
                stack += (holds[next] ?? []).filter { !facts.state($0).isSettled }
            }
            return seen
        }
        var heldByCycle: Set<Int> = []
        for node in facts.made where !facts.state(node).isSettled {
            let from = reachable(from: node)
            if from.contains(node) { heldByCycle.formUnion(from) }
        }
        var all: Set<Int> = []
        for (node, make) in program.makes where facts.made.contains(node) {
            if case .all = make { continue }
            all.insert(node)
        }
        return all.subtracting(heldByCycle)
    }
}
