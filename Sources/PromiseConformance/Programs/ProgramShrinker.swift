// ProgramShrinker.swift: making a failing program as small as it can be while it still fails the same way.
//
// Each candidate is the program with one thing made simpler: a step dropped (with everything that uses what it
// made), a link taken out of a chain, a handler's step dropped or made a step of the program (after the step that
// registers the handler, or at the end), a pending promise made settled as its first settlement says, a handler's
// result made a plain value, a handler made `_`, a thenable made shallower or quieter, an input of a combinator
// dropped. The first candidate that still breaks the same rule is
// kept, and the search starts again from it, until no candidate fails or the time is up. Then the promises, values
// and errors are numbered again from the start.

enum ProgramShrinker {
    /// The smallest program found that still `fails`, starting from `program`; `fails` is asked of each candidate
    /// in turn, and the search stops once `hasTime()` is false.
    static func shrink(_ program: Program, fails: (Program) -> Bool, hasTime: () -> Bool) -> Program {
        var smallest = program
        var improved = true
        while improved, hasTime() {
            improved = false
            for candidate in candidates(smallest) where candidate.size <= smallest.size && candidate != smallest {
                guard hasTime() else { break }
                if fails(candidate) {
                    smallest = candidate
                    improved = true
                    break
                }
            }
        }
        return smallest
    }

    /// The simpler programs one change away from `program`, the biggest changes first.
    static func candidates(_ program: Program) -> [Program] {
        var found: [Program] = []
        // Runs of steps taken out, halves first, then quarters, …: a long program loses most of its steps in a few
        // tries.
        var chunk = program.steps.count / 2
        while chunk >= 2 {
            for start in stride(from: 0, to: program.steps.count, by: chunk) {
                var steps = program.steps
                let removed = steps[start..<min(start + chunk, steps.count)]
                steps.removeSubrange(start..<min(start + chunk, steps.count))
                found.append(Program(steps).without(Set(Program(Array(removed)).makes.map(\.node))))
            }
            chunk /= 2
        }
        // A link taken out of a chain: what used the link uses its source instead.
        for (index, step) in program.steps.enumerated() {
            guard case .make(let node, .then(let source, _, _, _)) = step else { continue }
            var steps = program.steps
            steps.remove(at: index)
            let nested = Set(Program([step]).makes.map(\.node)).subtracting([node])
            found.append(Program(steps).without(nested).replacing(node, with: source))
        }
        // A step a handler runs made a step of the program, right after the one that registers the handler.
        for (index, step) in program.steps.enumerated() {
            guard case .make(let node, .then(let source, let queue, let onFulfilled, let onRejected)) = step else {
                continue
            }
            for (fulfilled, reaction) in [(true, onFulfilled), (false, onRejected)] {
                guard let reaction else { continue }
                for (effectIndex, effect) in reaction.effects.enumerated() {
                    var rest = reaction
                    rest.effects.remove(at: effectIndex)
                    var steps = program.steps
                    steps[index] = .make(
                        node,
                        .then(
                            source: source, queue: queue, onFulfilled: fulfilled ? rest : onFulfilled,
                            onRejected: fulfilled ? onRejected : rest))
                    steps.insert(effect, at: index + 1)
                    found.append(Program(steps))
                    // Or at the end: a settlement the handler made after later steps registered more handlers.
                    steps.remove(at: index + 1)
                    steps.append(effect)
                    found.append(Program(steps))
                }
            }
        }
        // A pending (or cancellable) promise settled by a later step made settled instead; a cancelled one made
        // rejected with an error of its own.
        for (index, step) in program.steps.enumerated() {
            guard case .make(let node, let make) = step, make == .pending || make == .cancellable,
                let settling = program.steps.firstIndex(where: {
                    switch $0 {
                    case .fulfil(node, _), .reject(node, _), .cancel(node): true
                    default: false
                    }
                })
            else { continue }
            var steps = program.steps
            switch steps[settling] {
            case .fulfil(_, let value): steps[index] = .make(node, .fulfilled(value))
            case .reject(_, let error): steps[index] = .make(node, .rejected(error))
            case .cancel: steps[index] = .make(node, .rejected(program.unusedError))
            default: continue
            }
            steps.remove(at: settling)
            found.append(Program(steps))
        }
        for index in program.steps.indices {
            var steps = program.steps
            let removed = steps.remove(at: index)
            if case .make(let node, _) = removed {
                found.append(Program(steps).without([node]))
            } else {
                found.append(Program(steps))
            }
        }
        for index in program.steps.indices {
            for simpler in simplifications(of: program.steps[index]) {
                var steps = program.steps
                steps[index] = simpler
                found.append(Program(steps).without(removedNodes(program.steps[index], simpler)))
            }
        }
        return found
    }

    /// The nodes `old` made that `new` no longer makes.
    private static func removedNodes(_ old: Program.Step, _ new: Program.Step) -> Set<Int> {
        Set(Program([old]).makes.map(\.node)).subtracting(Program([new]).makes.map(\.node))
    }

    /// `step` with one thing made simpler.
    private static func simplifications(of step: Program.Step) -> [Program.Step] {
        guard case .make(let node, let make) = step else { return [] }
        switch make {
        case .then(let source, let queue, let onFulfilled, let onRejected):
            var found: [Program.Step] = []
            if onFulfilled != nil {
                found.append(.make(node, .then(source: source, queue: queue, onFulfilled: nil, onRejected: onRejected)))
            }
            if onRejected != nil {
                found.append(
                    .make(node, .then(source: source, queue: queue, onFulfilled: onFulfilled, onRejected: nil)))
            }
            for simpler in simplifications(of: onFulfilled) {
                found.append(
                    .make(node, .then(source: source, queue: queue, onFulfilled: simpler, onRejected: onRejected)))
            }
            for simpler in simplifications(of: onRejected) {
                found.append(
                    .make(node, .then(source: source, queue: queue, onFulfilled: onFulfilled, onRejected: simpler)))
            }
            return found
        case .thenable(let spec):
            return simplifications(of: spec).map { .make(node, .thenable($0)) }
        case .all(let inputs), .race(let inputs), .any(let inputs):
            if case .race = make, inputs.count == 1 { return [] }
            return inputs.indices.map { index in
                var fewer = inputs
                fewer.remove(at: index)
                switch make {
                case .all: return .make(node, .all(fewer))
                case .race: return .make(node, .race(fewer))
                default: return .make(node, .any(fewer))
                }
            }
        default:
            return []
        }
    }

    private static func simplifications(of reaction: Program.Reaction?) -> [Program.Reaction] {
        guard let reaction else { return [] }
        var found: [Program.Reaction] = []
        for index in reaction.effects.indices {
            var fewer = reaction
            fewer.effects.remove(at: index)
            found.append(fewer)
        }
        for (index, effect) in reaction.effects.enumerated() {
            for simpler in simplifications(of: effect) {
                var changed = reaction
                changed.effects[index] = simpler
                found.append(changed)
            }
        }
        switch reaction.result {
        case .value: break
        case .thenable(let spec):
            found += simplifications(of: spec).map {
                Program.Reaction(effects: reaction.effects, result: .thenable($0))
            }
            found.append(Program.Reaction(effects: reaction.effects, result: .value(1_000)))
        default:
            found.append(Program.Reaction(effects: reaction.effects, result: .value(1_000)))
        }
        return found
    }

    private static func simplifications(of spec: Program.ThenableSpec) -> [Program.ThenableSpec] {
        var found: [Program.ThenableSpec] = []
        if spec.depth > 1 { found.append(with(spec) { $0.depth -= 1 }) }
        if spec.async { found.append(with(spec) { $0.async = false }) }
        if spec.noisy { found.append(with(spec) { $0.noisy = false }) }
        return found
    }

    private static func with<T>(_ value: T, _ change: (inout T) -> Void) -> T {
        var value = value
        change(&value)
        return value
    }
}

extension Program {
    /// The program without `nodes` and everything that uses them: `then`s on them (and their own dependants),
    /// settlements of them, their places among combinators' inputs; a handler that adopted one returns a value instead.
    func without(_ nodes: Set<Int>) -> Program {
        guard !nodes.isEmpty else { return self }
        var removed = nodes
        func keep(_ steps: [Step]) -> [Step] {
            steps.compactMap { step in
                switch step {
                case .fulfil(let node, _), .reject(let node, _), .cancel(let node):
                    return removed.contains(node) ? nil : step
                case .make(let node, let make):
                    if removed.contains(node) { return nil }
                    switch make {
                    case .then(let source, let queue, let onFulfilled, let onRejected):
                        if removed.contains(source) {
                            removed.formUnion(Program([step]).makes.map(\.node))
                            return nil
                        }
                        return .make(
                            node,
                            .then(
                                source: source, queue: queue, onFulfilled: onFulfilled.map(fix),
                                onRejected: onRejected.map(fix)))
                    case .all(let inputs): return .make(node, .all(inputs.filter { !removed.contains($0) }))
                    case .race(let inputs):
                        // A race of nothing never settles, and some libraries refuse one: it goes with its inputs.
                        let kept = inputs.filter { !removed.contains($0) }
                        if kept.isEmpty {
                            removed.insert(node)
                            return nil
                        }
                        return .make(node, .race(kept))
                    case .any(let inputs): return .make(node, .any(inputs.filter { !removed.contains($0) }))
                    default: return step
                    }
                }
            }
        }
        func fix(_ reaction: Reaction) -> Reaction {
            var reaction = reaction
            reaction.effects = keep(reaction.effects)
            if case .adopt(let other) = reaction.result, removed.contains(other) { reaction.result = .value(1_000) }
            return reaction
        }
        var program = Program(keep(steps))
        // A removal can make a later removal necessary (a then on a then that went): repeat until nothing changes.
        while true {
            let again = Program(keep(program.steps))
            if again == program { return program }
            program = again
        }
    }

    /// The program with every use of promise `old` (as a source, an input, a promise adopted or settled) made a use
    /// of `new`.
    func replacing(_ old: Int, with new: Int) -> Program {
        func node(_ id: Int) -> Int { id == old ? new : id }
        func step(_ step: Step) -> Step {
            switch step {
            case .fulfil(let target, let value): return .fulfil(node(target), value)
            case .reject(let target, let error): return .reject(node(target), error)
            case .cancel(let target): return .cancel(node(target))
            case .make(let made, let make):
                switch make {
                case .then(let source, let queue, let onFulfilled, let onRejected):
                    return .make(
                        made,
                        .then(
                            source: node(source), queue: queue, onFulfilled: onFulfilled.map(reaction),
                            onRejected: onRejected.map(reaction)))
                case .all(let inputs): return .make(made, .all(inputs.map(node)))
                case .race(let inputs): return .make(made, .race(inputs.map(node)))
                case .any(let inputs): return .make(made, .any(inputs.map(node)))
                default: return step
                }
            }
        }
        func reaction(_ reaction: Reaction) -> Reaction {
            var changed = reaction
            changed.effects = reaction.effects.map(step)
            if case .adopt(let other) = reaction.result { changed.result = .adopt(node(other)) }
            return changed
        }
        return Program(steps.map(step))
    }

    /// The program with its promises, values and errors numbered again from the start, in the order of the text.
    var renumbered: Program {
        var nodes: [Int: Int] = [:]
        var values: [Int: Int] = [:]
        var errors: [Int: Int] = [:]
        func node(_ old: Int) -> Int {
            if let new = nodes[old] { return new }
            nodes[old] = nodes.count
            return nodes.count - 1
        }
        func value(_ old: Int) -> Int {
            if let new = values[old] { return new }
            values[old] = values.count + 1
            return values.count
        }
        func error(_ old: Int) -> Int {
            if let new = errors[old] { return new }
            errors[old] = errors.count + 1
            return errors.count
        }
        func spec(_ old: ThenableSpec) -> ThenableSpec {
            var new = old
            new.ending =
                switch old.ending {
                case .fulfil(let id): .fulfil(value(id))
                case .reject(let id): .reject(error(id))
                }
            return new
        }
        func step(_ old: Step) -> Step {
            switch old {
            case .fulfil(let target, let id): return .fulfil(node(target), value(id))
            case .reject(let target, let id): return .reject(node(target), error(id))
            case .cancel(let target): return .cancel(node(target))
            case .make(let made, let make):
                let new = node(made)
                switch make {
                case .pending, .cancellable: return .make(new, make)
                case .fulfilled(let id): return .make(new, .fulfilled(value(id)))
                case .rejected(let id): return .make(new, .rejected(error(id)))
                case .thenable(let old): return .make(new, .thenable(spec(old)))
                case .then(let source, let queue, let onFulfilled, let onRejected):
                    let source = node(source)
                    return .make(
                        new,
                        .then(
                            source: source, queue: queue, onFulfilled: onFulfilled.map(reaction),
                            onRejected: onRejected.map(reaction)))
                case .all(let inputs): return .make(new, .all(inputs.map(node)))
                case .race(let inputs): return .make(new, .race(inputs.map(node)))
                case .any(let inputs): return .make(new, .any(inputs.map(node)))
                }
            }
        }
        func reaction(_ old: Reaction) -> Reaction {
            let effects = old.effects.map(step)
            let result: Return =
                switch old.result {
                case .value(let id): .value(value(id))
                case .throwing(let id): .throwing(error(id))
                case .adopt(let other): .adopt(node(other))
                case .adoptSelf: .adoptSelf
                case .thenable(let old): .thenable(spec(old))
                }
            return Reaction(effects: effects, result: result)
        }
        return Program(steps.map(step))
    }
}

extension Program {
    /// An error number no step of the program uses.
    fileprivate var unusedError: Int {
        var largest = 0
        func visit(_ steps: [Step]) {
            for step in steps {
                switch step {
                case .reject(_, let error): largest = Swift.max(largest, error)
                case .make(_, .rejected(let error)): largest = Swift.max(largest, error)
                case .make(_, .thenable(let spec)): largest = Swift.max(largest, spec.endingError)
                case .make(_, .then(_, _, let onFulfilled, let onRejected)):
                    for reaction in [onFulfilled, onRejected].compactMap({ $0 }) {
                        visit(reaction.effects)
                        switch reaction.result {
                        case .throwing(let error): largest = Swift.max(largest, error)
                        case .thenable(let spec): largest = Swift.max(largest, spec.endingError)
                        default: break
                        }
                    }
                default: break
                }
            }
        }
        visit(steps)
        return largest + 1
    }
}

extension Program.ThenableSpec {
    /// The error its last level rejects with, or 0.
    fileprivate var endingError: Int {
        if case .reject(let error) = ending { return error }
        return 0
    }
}
