// ProgramRelations.swift: the relations between a program's steps that its coverage table counts, beside the kinds.
//
// A kind says what one step is (a `then`, an `all`); a relation says how steps meet: two handlers waiting on one
// pending promise, a promise adopted by several handlers, a handler that registers on the promise it handles. A bug
// in a promise's lists or state usually needs a relation, not a kind: a delivery list that keeps one entry passes
// every program with one handler per promise. Relations are read from the program's text, as the generator wrote it,
// and from the model's prediction of the step in which each promise settles; whether the run then meets them in that
// order is up to the implementation.

/// Counts the relations of ``kinds`` in programs.
enum ProgramRelations {
    /// The relations, in the order the coverage table lists them.
    static let kinds = [
        "two handlers on one pending promise",
        "two pass-through chains off one promise, settled after them",
        "adopts a promise still adopting another",
        "one promise adopted by two handlers",
        "one promise adopted by three handlers",
        "a pending promise adopted by three handlers run before it settles",
        "registers on the promise it handles, on a queue",
        "registers on the promise it handles, no queue",
        "registers on the promise it resolves",
        "settles a promise that has handlers",
        "combinator over inputs settled before it",
        "combinator over inputs settled after it",
        "combinator over settled and pending inputs",
        "combinator over inputs settled during its step",
    ]

    /// Adds the relations of `program` to `counts`.
    static func count(_ program: Program, into counts: inout [String: Int]) {
        var relations = Relations()
        let facts = PromisesAPlus.predict(program).facts
        relations.predictedSettlement = facts.settledAt
        relations.predictedFulfilled = Set(
            facts.states.compactMap { node, state in
                if case .fulfilled = state { return node }
                return nil
            })
        for (index, step) in program.steps.enumerated() { relations.visit(step, at: index, handlerOf: nil) }
        relations.finish()
        for (relation, count) in relations.counts { counts[relation, default: 0] += count }
    }

    /// What one program's steps show, read in order.
    private struct Relations {
        var counts: [String: Int] = [:]
        /// Each promise's `then` make, for the chains and adoptions.
        var thens: [Int: (source: Int, passes: Bool, adopts: Bool)] = [:]
        /// The promises made pending (or cancellable), and those a step settled, with the index of that step (the
        /// top-level step it ran in, for a handler's settlement).
        var pending: Set<Int> = []
        var settledAt: [Int: Int] = [:]
        /// The promises made settled.
        var madeSettled: Set<Int> = []
        /// How many `then`s each promise has, and how many registered while it was pending and unsettled.
        var handlers: [Int: Int] = [:]
        var waiting: [Int: Int] = [:]
        /// How many handlers adopt each promise.
        var adopters: [Int: Int] = [:]
        /// The step each promise was made in (its top-level step, for one a handler makes).
        var madeAt: [Int: Int] = [:]
        /// The combinators, with their inputs and the index of their step.
        var combinators: [(inputs: [Int], at: Int)] = []
        /// The step in which the model says each promise settles (for the chains, whose promises a `then` made), and
        /// the promises it says fulfil.
        var predictedSettlement: [Int: Int] = [:]
        var predictedFulfilled: Set<Int> = []
        /// The handlers that return a promise: the `then` they belong to, its source, the promise returned, and
        /// whether it is onFulfilled.
        var returnsPromise: [(then: Int, source: Int, adopted: Int, fulfilled: Bool)] = []

        mutating func add(_ relation: String) { counts[relation, default: 0] += 1 }

        /// Visits `step`, the top-level step `index` or one of its handlers' effects (`handlerOf`: the `then` that
        /// handler belongs to, with its source).
        mutating func visit(_ step: Program.Step, at index: Int, handlerOf: (node: Int, source: Int)?) {
            switch step {
            case .fulfil(let node, _), .reject(let node, _), .cancel(let node):
                if handlerOf != nil, (handlers[node] ?? 0) > 0 { add("settles a promise that has handlers") }
                if settledAt[node] == nil { settledAt[node] = index }
            case .make(let node, let make):
                visit(make, node, at: index, handlerOf: handlerOf)
            }
        }

        mutating func visit(_ make: Program.Make, _ node: Int, at index: Int, handlerOf: (node: Int, source: Int)?) {
            madeAt[node] = index
            switch make {
            case .pending, .cancellable: pending.insert(node)
            case .fulfilled, .rejected: madeSettled.insert(node)
            case .thenable: break
            case .all(let inputs), .race(let inputs), .any(let inputs):
                combinators.append((inputs, index))
            case .then(let source, let queue, let onFulfilled, let onRejected):
                if let handlerOf {
                    if source == handlerOf.source {
                        add("registers on the promise it handles, " + (queue == nil ? "no queue" : "on a queue"))
                    }
                    if source == handlerOf.node { add("registers on the promise it resolves") }
                }
                handlers[source, default: 0] += 1
                if pending.contains(source), settledAt[source] == nil {
                    waiting[source, default: 0] += 1
                    if waiting[source] == 2 { add("two handlers on one pending promise") }
                }
                let reactions = [onFulfilled, onRejected].compactMap { $0 }
                let adopts = reactions.contains { reaction in
                    switch reaction.result {
                    case .adopt, .thenable: true
                    default: false
                    }
                }
                thens[node] = (source, onFulfilled == nil || onRejected == nil, adopts)
                for (fulfilled, reaction) in [(true, onFulfilled), (false, onRejected)] {
                    guard let reaction else { continue }
                    if case .adopt(let adopted) = reaction.result {
                        returnsPromise.append((node, source, adopted, fulfilled))
                        adopters[adopted, default: 0] += 1
                        if adopters[adopted] == 2 { add("one promise adopted by two handlers") }
                        if adopters[adopted] == 3 { add("one promise adopted by three handlers") }
                    }
                    for (position, effect) in reaction.effects.enumerated() {
                        if case .make(_, let inner) = effect, let inputs = inner.combinatorInputs {
                            // Settled once the handler returns, or by a later effect of it: during the step, after
                            // the combinator was made.
                            var during = Set(reaction.effects[(position + 1)...].compactMap(\.settled))
                            if reaction.settlesItsPromise { during.insert(node) }
                            if inputs.contains(where: during.contains) {
                                add("combinator over inputs settled during its step")
                            }
                        }
                        visit(effect, at: index, handlerOf: (node, source))
                    }
                }
            }
        }

        /// Counts what needs the whole program: chains, and the combinators' inputs against their settlements.
        mutating func finish() {
            var chainsOff: [Int: Int] = [:]
            var chained: [Int: Int] = [:]  // link → the step of the first `then` on it
            for (node, then) in thens {
                chained[then.source] = min(chained[then.source] ?? .max, madeAt[node] ?? .max)
            }
            // A pass-through link that something else is chained on (the start of a chain of two links or more), off
            // a promise that settles in a later step than both: its settlement delivers into the chain, nested.
            for (node, then) in thens where then.passes {
                guard let next = chained[node], let settles = predictedSettlement[then.source],
                    settles > max(madeAt[node] ?? .max, next)
                else { continue }
                chainsOff[then.source, default: 0] += 1
            }
            // A handler that returns a promise x which, when the handler runs, adopts a promise still pending: the
            // step each adopting handler runs in, when the model says its promise settles the way that runs it.
            func runs(_ adoption: (then: Int, source: Int, adopted: Int, fulfilled: Bool)) -> Int? {
                guard let settles = predictedSettlement[adoption.source],
                    predictedFulfilled.contains(adoption.source) == adoption.fulfilled
                else { return nil }
                return max(settles, madeAt[adoption.then] ?? 0)
            }
            for outer in returnsPromise {
                guard let outerRuns = runs(outer) else { continue }
                let stillAdopting = returnsPromise.contains { inner in
                    guard inner.then == outer.adopted, let innerRuns = runs(inner) else { return false }
                    return innerRuns <= outerRuns && (predictedSettlement[inner.adopted] ?? .max) > outerRuns
                }
                if stillAdopting { add("adopts a promise still adopting another") }
            }
            for count in chainsOff.values where count >= 2 {
                add("two pass-through chains off one promise, settled after them")
            }
            // The step by which a promise the program made settled or settles, when the program says (not for a
            // promise a `then` made).
            func settled(_ node: Int) -> Int? { madeSettled.contains(node) ? madeAt[node] : settledAt[node] }
            for adopted in Set(returnsPromise.map(\.adopted)) where pending.contains(adopted) {
                let before = returnsPromise.filter { adoption in
                    guard adoption.adopted == adopted, let source = settled(adoption.source) else { return false }
                    return source < (settledAt[adopted] ?? .max)
                }
                if before.count >= 3 { add("a pending promise adopted by three handlers run before it settles") }
            }
            for combinator in combinators {
                let before = combinator.inputs.filter {
                    madeSettled.contains($0) || (settledAt[$0] ?? .max) < combinator.at
                }
                let after = combinator.inputs.filter { (settledAt[$0] ?? -1) > combinator.at }
                if !before.isEmpty { add("combinator over inputs settled before it") }
                if !after.isEmpty { add("combinator over inputs settled after it") }
                if !before.isEmpty, before.count < combinator.inputs.count {
                    add("combinator over settled and pending inputs")
                }
            }
        }
    }
}

extension Program.Make {
    /// A combinator's inputs (nil for any other make).
    fileprivate var combinatorInputs: [Int]? {
        switch self {
        case .all(let inputs), .race(let inputs), .any(let inputs): inputs
        default: nil
        }
    }
}

extension Program.Step {
    /// The promise a settlement step settles (nil for a make).
    fileprivate var settled: Int? {
        switch self {
        case .fulfil(let node, _), .reject(let node, _), .cancel(let node): node
        case .make: nil
        }
    }
}

extension Program.Reaction {
    /// Whether the handler's own promise settles as soon as it returns: it returns a value, throws, or returns that
    /// promise itself (a rejection, A+ 2.3.1).
    fileprivate var settlesItsPromise: Bool {
        switch result {
        case .value, .throwing, .adoptSelf: true
        case .adopt, .thenable: false
        }
    }
}
