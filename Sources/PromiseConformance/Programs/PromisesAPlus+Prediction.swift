// PromisesAPlus+Prediction.swift: the model run over a whole program, step by step, on its own answers.
//
// The prediction tells the driver what must have happened by the end of each step (which promises settled, which
// handlers ran, which `all` completed), so that it waits for exactly that work, however slow the implementation, and
// no longer. It is never compared with what the implementation did: the checker asks the model again, given what the
// implementation's other promises really did.

extension PromisesAPlus {
    /// What must have happened by the end of one step.
    struct Milestones: Sendable {
        var settled: Set<Int> = []
        var handlersRun: Set<Int> = []
        var allsCompleted: Set<Int> = []
    }

    /// The model's run of a program: its facts at the end, and the milestones of each step.
    struct Prediction: Sendable {
        var facts = Facts()
        var steps: [Milestones] = []
        /// The promises, handlers and `all`s the driver need not wait for: they depend on a rule the implementation
        /// declares it departs from (a self-adopting promise that never settles, say).
        var unsure: Set<Int> = []
    }

    /// Runs the model over `program`. `declared` says whether the implementation declares a departure from a rule.
    static func predict(_ program: Program, declared: (String) -> Bool = { _ in false }) -> Prediction {
        var prediction = Prediction()
        let makes = program.makes
        var ran: Set<Int> = []
        var completed: Set<Int> = []
        var current = 0

        func apply(_ step: Program.Step) {
            switch step {
            case .make(let node, _):
                prediction.facts.made.insert(node)
                prediction.facts.madeAt[node] = current
            case .fulfil(let node, let value): prediction.facts.settleCalls[node, default: []].append(.fulfil(value))
            case .reject(let node, let error): prediction.facts.settleCalls[node, default: []].append(.reject(error))
            case .cancel(let node): prediction.facts.settleCalls[node, default: []].append(.cancel)
            }
        }

        /// Runs every handler whose source settled and settles every promise the rules settle, until nothing changes.
        func propagate(_ index: Int) {
            var changed = true
            while changed {
                changed = false
                for (node, make) in makes where prediction.facts.made.contains(node) {
                    if case .then(let source, _, let onFulfilled, let onRejected) = make, !ran.contains(node),
                        let run = handlerInput(
                            source: source, onFulfilled: onFulfilled, onRejected: onRejected, facts: prediction.facts)
                    {
                        ran.insert(node)
                        run.reaction.effects.forEach(apply)
                        if prediction.unsure.contains(source) {
                            // The handler may never run, and what it settles may then never settle.
                            prediction.unsure.insert(node)
                            for case .fulfil(let target, _) in run.reaction.effects { prediction.unsure.insert(target) }
                            for case .reject(let target, _) in run.reaction.effects { prediction.unsure.insert(target) }
                            for case .cancel(let target) in run.reaction.effects { prediction.unsure.insert(target) }
                        }
                        changed = true
                    }
                    if case .all(let inputs) = make {
                        if !completed.contains(node), allExpectation(node, inputs, facts: prediction.facts) != nil {
                            completed.insert(node)
                            if declared("swift.combinator.all") { prediction.unsure.insert(node) }
                            changed = true
                        }
                        continue
                    }
                    guard !prediction.facts.state(node).isSettled else { continue }
                    let expectation = expectation(of: node, make, facts: prediction.facts)
                    guard let state = expectation.allowed.first, state.isSettled else { continue }
                    if declared(expectation.rule) { prediction.unsure.insert(node) }
                    prediction.facts.states[node] = state
                    prediction.facts.settledAt[node] = index
                    changed = true
                }
            }
        }

        for (index, step) in program.steps.enumerated() {
            current = index
            apply(step)
            propagate(index)
            prediction.steps.append(
                Milestones(
                    settled: Set(prediction.facts.settledAt.keys), handlersRun: ran, allsCompleted: completed))
        }
        prediction.unsure = dependants(of: prediction.unsure, in: makes)
        return prediction
    }

    /// `nodes` and every promise, handler and `all` that depends on one of them.
    static func dependants(of nodes: Set<Int>, in makes: [(node: Int, make: Program.Make)]) -> Set<Int> {
        var result = nodes
        var changed = !nodes.isEmpty
        while changed {
            changed = false
            for (node, make) in makes where !result.contains(node) {
                let inputs: [Int]
                switch make {
                case .then(let source, _, let onFulfilled, let onRejected):
                    var adopted: [Int] = []
                    for reaction in [onFulfilled, onRejected] {
                        if case .adopt(let other)? = reaction?.result { adopted.append(other) }
                    }
                    inputs = [source] + adopted
                case .all(let list), .race(let list), .any(let list): inputs = list
                default: inputs = []
                }
                if inputs.contains(where: result.contains) {
                    result.insert(node)
                    changed = true
                }
            }
        }
        return result
    }
}
