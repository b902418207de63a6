// ProgramGenerator.swift: seeded programs over what an adapter offers.
//
// A program is a function of its seed, its family and its index, so that a run is the same every time and a failure
// can be replayed. Each family (one generated clause each) leans on one group of rules, and every family mixes in the
// rest: chains of any length, fan-out trees, handlers that register and settle from inside, settlements spread across
// steps. The generator only uses what the adapter declares (thenables with `.assimilation`, each combinator with its
// capability, cancellation with `.cancellation`).

/// Makes the programs of the generated clauses.
struct ProgramGenerator: Sendable {
    /// The group of rules a generated clause leans on.
    enum Family: String, CaseIterable, Sendable {
        /// `then`: handler calls and inputs, order, chains and trees, registrations and settlements from handlers.
        case then
        /// The resolution procedure: adopting promises of the program (and the promise itself), thenables.
        case resolution
        /// `all`, `race` and `any` over settled and pending inputs, repeated ones, none.
        case combinators
        /// Cancellation, passed along chains and through handlers.
        case cancellation

        /// The family's clause id.
        var clauseID: String { "generated.\(rawValue)" }
    }

    let family: Family
    let capabilities: Capabilities

    /// Program `index` (from 1) of the run seeded with `seed`.
    func program(seed: UInt64, index: Int) -> Program {
        let familyBits = UInt64(Family.allCases.firstIndex(of: family)!) << 56
        var random = SplitMix(seed: seed ^ familyBits ^ (UInt64(index) &* 0x9E37_79B9_7F4A_7C15))
        var builder = Builder(family: family, capabilities: capabilities)
        let length = 5 + random.below(14)
        while builder.steps.count < length { builder.addStep(&random) }
        builder.settleSomeLeft(&random)
        return Program(builder.steps)
    }

    /// Builds one program, step by step.
    private struct Builder {
        let family: Family
        let capabilities: Capabilities
        var steps: [Program.Step] = []
        var nextNode = 0
        var nextValue = 1
        var nextError = 1
        /// The promises made at the top level, which later steps may use.
        var promises: [Int] = []
        /// The pending promises made at the top level, with whether they are cancellable.
        var settleable: [(node: Int, cancellable: Bool)] = []
        /// The promises of `settleable` that no step has settled yet.
        var unsettled: Set<Int> = []
        /// The promises of `settleable` that no step has settled yet, in the order they were made.
        var stillPending: [(node: Int, cancellable: Bool)] { settleable.filter { unsettled.contains($0.node) } }
        /// Pending promises a handler settles: no other handler settles them, so which call comes first is known.
        var settledByHandler: Set<Int> = []
        /// The last promise a `then` made, to grow chains.
        var tip: Int?
        /// A promise many handlers are registered on, to grow fan-out, and the queue most of them run on.
        var hub: Int?
        var hubQueue: Int?
        /// The promise handlers last adopted, which others tend to adopt too (several adopters of one promise).
        var adopted: Int?
        /// The promises made settled (`fulfilled`, `rejected`): their handlers run in the step that registers them.
        var settledSources: [Int] = []

        init(family: Family, capabilities: Capabilities) {
            self.family = family
            self.capabilities = capabilities
        }

        mutating func node() -> Int {
            defer { nextNode += 1 }
            return nextNode
        }

        mutating func value() -> Int {
            defer { nextValue += 1 }
            return nextValue
        }

        mutating func error() -> Int {
            defer { nextError += 1 }
            return nextError
        }

        var combinators: [String] {
            [("all", Capabilities.all), ("race", .race), ("any", .any)].filter { capabilities.contains($0.1) }.map(\.0)
        }

        mutating func addStep(_ random: inout SplitMix) {
            let canCancel = capabilities.contains(.cancellation)
            let pendingLeft = !stillPending.isEmpty
            var weights: [(String, Int)] = [
                ("pending", promises.isEmpty ? 40 : 10), ("settled", 6), ("then", promises.isEmpty ? 0 : 26),
                ("chain", tip == nil ? 0 : 22), ("long chain", promises.isEmpty ? 0 : 6), ("fan", hub == nil ? 0 : 34),
                ("settle", settleable.isEmpty ? 0 : 14),
            ]
            switch family {
            case .then: weights += [("siblings", pendingLeft ? 6 : 0)]
            case .resolution:
                weights += [
                    ("thenable", capabilities.contains(.assimilation) ? 8 : 0), ("adopters", pendingLeft ? 8 : 0),
                    ("adoption chain", pendingLeft ? 6 : 0),
                ]
            case .combinators:
                weights += [("combinator", combinators.isEmpty || promises.isEmpty ? 0 : 22), ("pending", 12)]
            case .cancellation:
                weights += [("cancellable", canCancel ? 14 : 0)]
            }
            if family != .combinators, !combinators.isEmpty, !promises.isEmpty { weights.append(("combinator", 4)) }
            if family != .resolution, pendingLeft { weights += [("adopters", 2), ("adoption chain", 2)] }
            if family != .then, pendingLeft { weights.append(("siblings", 2)) }
            if family != .cancellation, canCancel { weights.append(("cancellable", 2)) }
            if family != .resolution, capabilities.contains(.assimilation) { weights.append(("thenable", 2)) }
            switch pick(weights, &random) {
            case "pending": makePending(&random, cancellable: false)
            case "cancellable": makePending(&random, cancellable: true)
            case "settled":
                let made = node()
                steps.append(.make(made, random.chance(60) ? .fulfilled(value()) : .rejected(error())))
                promises.append(made)
                settledSources.append(made)
            case "thenable":
                let made = node()
                steps.append(.make(made, .thenable(thenable(&random))))
                promises.append(made)
            case "then": addThen(on: random.pick(promises), &random)
            case "chain": addThen(on: tip!, &random)
            case "long chain": addLongChain(&random)
            case "fan": addThen(on: hub!, &random, queue: random.chance(70) ? hubQueue : nil)
            case "settle": settle(&random)
            case "adopters": addAdopters(&random)
            case "adoption chain": addAdoptionChain(&random)
            case "siblings": addSiblingChains(&random)
            default: addCombinator(&random)
            }
        }

        func pick(_ weights: [(String, Int)], _ random: inout SplitMix) -> String {
            var roll = random.below(weights.reduce(0) { $0 + $1.1 })
            for (name, weight) in weights {
                if roll < weight { return name }
                roll -= weight
            }
            return weights.last!.0
        }

        mutating func makePending(_ random: inout SplitMix, cancellable: Bool) {
            let made = node()
            steps.append(.make(made, cancellable ? .cancellable : .pending))
            promises.append(made)
            settleable.append((made, cancellable))
            unsettled.insert(made)
            if hub == nil || random.chance(20) { setHub(made, &random) }
        }

        /// A chain of 4 to 9 links on a promise of the program, most of them passing on one outcome (`_` for it) and
        /// handling the other: a rejection or a cancellation travels far before a handler meets it.
        mutating func addLongChain(_ random: inout SplitMix) {
            var source = settleable.last.map(\.node) ?? random.pick(promises)
            if random.chance(50) { source = random.pick(promises) }
            let passesRejections = random.chance(60)
            for _ in 0..<(4 + random.below(6)) {
                let made = node()
                let queue: Int? = random.chance(50) ? 1 + random.below(2) : nil
                let handled = reaction(made, &random, nested: 2)
                let passes = random.chance(80)
                let make: Program.Make =
                    passesRejections
                    ? .then(source: source, queue: queue, onFulfilled: handled, onRejected: passes ? nil : handled)
                    : .then(source: source, queue: queue, onFulfilled: passes ? nil : handled, onRejected: handled)
                steps.append(.make(made, make))
                promises.append(made)
                source = made
            }
            tip = source
        }

        mutating func setHub(_ node: Int, _ random: inout SplitMix) {
            hub = node
            hubQueue = random.chance(70) ? 1 + random.below(2) : nil
        }

        mutating func addThen(on source: Int, _ random: inout SplitMix, queue: Int?? = nil) {
            let made = node()
            var make = then(made, on: source, &random, nested: 0)
            if let queue, case .then(let source, _, let onFulfilled, let onRejected) = make {
                make = .then(source: source, queue: queue, onFulfilled: onFulfilled, onRejected: onRejected)
            }
            steps.append(.make(made, make))
            promises.append(made)
            tip = made
            if random.chance(15) { setHub(made, &random) }
        }

        /// A `then` on `source` making promise `made`.
        mutating func then(_ made: Int, on source: Int, _ random: inout SplitMix, nested: Int) -> Program.Make {
            let queue: Int? = random.chance(40) ? 1 : random.chance(45) ? 2 : nil
            let onFulfilled = random.chance(80) ? reaction(made, &random, nested: nested) : nil
            let rejectedShare = family == .cancellation ? 65 : 50
            let onRejected = random.chance(rejectedShare) ? reaction(made, &random, nested: nested) : nil
            return .then(source: source, queue: queue, onFulfilled: onFulfilled, onRejected: onRejected)
        }

        mutating func reaction(_ made: Int, _ random: inout SplitMix, nested: Int) -> Program.Reaction {
            var effects: [Program.Step] = []
            if nested < 2 {
                let count = random.chance(22) ? (random.chance(30) ? 2 : 1) : 0
                for _ in 0..<count { effects.append(effect(made, &random, nested: nested)) }
            }
            let resolving = family == .resolution
            var weights: [(String, Int)] = [
                ("value", 45), ("throw", 20), ("adopt", resolving ? 40 : 12), ("self", resolving ? 8 : 2),
            ]
            if capabilities.contains(.assimilation) { weights.append(("thenable", resolving ? 30 : 5)) }
            let result: Program.Return =
                switch pick(weights, &random) {
                case "value": .value(value())
                case "throw": .throwing(error())
                case "adopt" where !promises.isEmpty: .adopt(adoptTarget(&random))
                case "self": .adoptSelf
                case "thenable": .thenable(thenable(&random))
                default: .value(value())
                }
            return Program.Reaction(effects: effects, result: result)
        }

        /// Three or four handlers that adopt one pending promise, each on a promise settled already, so that all of
        /// them run (and adopt it) before it settles: several adopters waiting on one promise at once. Most often the
        /// promise then settles at once.
        mutating func addAdopters(_ random: inout SplitMix) {
            let pending = stillPending
            guard !pending.isEmpty else { return }
            let target = random.pick(pending)
            adopted = target.node
            for _ in 0..<(3 + random.below(2)) { addAdopter(of: target.node, &random) }
            if random.chance(70) { steps.append(settlement(of: target, &random)) }
        }

        /// Two or three handlers, each run after the one before, each returning the promise of the one before, the
        /// first returning a pending promise: a promise that adopts one still adopting another. Most often the pending
        /// promise then settles.
        mutating func addAdoptionChain(_ random: inout SplitMix) {
            let pending = stillPending
            guard !pending.isEmpty else { return }
            let target = random.pick(pending)
            var adopted = target.node
            for _ in 0..<(2 + random.below(2)) { adopted = addAdopter(of: adopted, &random) }
            if random.chance(70) { steps.append(settlement(of: target, &random)) }
        }

        /// A `then` whose handlers return `adopted`, on a promise settled already (one of the program's, or a new
        /// one), so that it runs in the step that makes it; returns the promise the `then` makes.
        @discardableResult
        mutating func addAdopter(of adopted: Int, _ random: inout SplitMix) -> Int {
            // On a settled promise of its own, or on one of those before: adopters run from one settlement or several.
            if settledSources.isEmpty || random.chance(40) {
                let made = node()
                steps.append(.make(made, random.chance(70) ? .fulfilled(value()) : .rejected(error())))
                promises.append(made)
                settledSources.append(made)
            }
            let made = node()
            let adopts = Program.Reaction(effects: [], result: .adopt(adopted))
            let queue: Int? = random.chance(40) ? nil : 1 + random.below(2)
            steps.append(
                .make(
                    made,
                    .then(source: random.pick(settledSources), queue: queue, onFulfilled: adopts, onRejected: adopts)))
            promises.append(made)
            tip = made
            return made
        }

        /// Two or three chains of two links off one pending promise, the first link of each passing one outcome on
        /// (`_`); most often the promise then settles, and its settlement delivers into every chain, nested.
        mutating func addSiblingChains(_ random: inout SplitMix) {
            let pending = stillPending
            guard !pending.isEmpty else { return }
            let root = random.pick(pending)
            // Most links on one queue (or none), and every first link passing the same outcome on, or both: the
            // root's settlement reaches each chain from one delivery.
            let queue: Int? = random.chance(50) ? nil : 1 + random.below(2)
            let passesValues = random.chance(70)
            let passesErrors = !passesValues || random.chance(40)
            for _ in 0..<(random.chance(60) ? 3 : 2) {
                var source = root.node
                for link in 0..<2 {
                    let made = node()
                    let handled = reaction(made, &random, nested: 2)
                    let first = link == 0
                    steps.append(
                        .make(
                            made,
                            .then(
                                source: source, queue: random.chance(80) ? queue : 1 + random.below(2),
                                onFulfilled: first && passesValues ? nil : handled,
                                onRejected: (first && passesErrors) || random.chance(50) ? nil : handled)))
                    promises.append(made)
                    source = made
                }
            }
            if random.chance(70) { steps.append(settlement(of: root, &random)) }
        }

        /// A promise for a handler to adopt: often the one handlers adopted last, so that one promise gets several
        /// adopters; otherwise any promise of the program, most often a pending one.
        mutating func adoptTarget(_ random: inout SplitMix) -> Int {
            if let adopted, random.chance(60) { return adopted }
            let pending = stillPending.map(\.node)
            let target = !pending.isEmpty && random.chance(70) ? random.pick(pending) : random.pick(promises)
            adopted = target
            return target
        }

        /// A step a handler runs: a `then` on a promise of the program, or settling one no other handler settles.
        mutating func effect(_ made: Int, _ random: inout SplitMix, nested: Int) -> Program.Step {
            if !combinators.isEmpty, random.chance(family == .combinators ? 30 : 4) {
                return combinatorInHandler(made, &random)
            }
            let free = settleable.filter { !settledByHandler.contains($0.node) }
            if !free.isEmpty, random.chance(45) {
                let target = random.pick(free)
                settledByHandler.insert(target.node)
                return settlement(of: target, &random)
            }
            let source = promises.isEmpty || random.chance(20) ? made : random.pick(promises)
            guard source != made else {
                // A `then` on the handler's own promise: it is still pending while its handler runs.
                let inner = node()
                return .make(inner, then(inner, on: made, &random, nested: nested + 1))
            }
            let inner = node()
            return .make(inner, then(inner, on: source, &random, nested: nested + 1))
        }

        /// A combinator a handler makes, over inputs that settle before it (the promise whose handler runs, or one
        /// of the program's), during its step (the handler's own promise, which settles once the handler returns), or
        /// later.
        mutating func combinatorInHandler(_ made: Int, _ random: inout SplitMix) -> Program.Step {
            var inputs = random.chance(70) ? [made] : []
            for _ in 0..<(random.below(3) + (inputs.isEmpty ? 1 : 0)) where !promises.isEmpty {
                inputs.insert(random.pick(promises), at: random.below(inputs.count + 1))
            }
            var kinds = combinators
            if inputs.isEmpty { kinds.removeAll { $0 == "race" } }
            let inner = node()
            switch kinds.isEmpty ? "all" : random.pick(kinds) {
            case "race": return .make(inner, .race(inputs))
            case "any": return .make(inner, .any(inputs))
            default: return .make(inner, .all(inputs))
            }
        }

        mutating func settlement(of target: (node: Int, cancellable: Bool), _ random: inout SplitMix) -> Program.Step {
            unsettled.remove(target.node)
            if target.cancellable, random.chance(family == .cancellation ? 60 : 30) { return .cancel(target.node) }
            if target.cancellable || random.chance(60) { return .fulfil(target.node, value()) }
            return .reject(target.node, error())
        }

        /// Settles a pending promise of the program: most often one no step settled yet, sometimes one again.
        mutating func settle(_ random: inout SplitMix) {
            let fresh = stillPending
            steps.append(
                settlement(
                    of: !fresh.isEmpty && random.chance(75) ? random.pick(fresh) : random.pick(settleable), &random))
        }

        /// Settles some of the pending promises nothing settled yet, at the end, so that long programs settle more.
        mutating func settleSomeLeft(_ random: inout SplitMix) {
            for target in settleable where random.chance(35) { steps.append(settlement(of: target, &random)) }
        }

        mutating func addCombinator(_ random: inout SplitMix) {
            let count = random.chance(30) ? 0 : 1 + random.below(6)
            var kinds = combinators
            if count == 0 { kinds.removeAll { $0 == "race" } }  // a race of nothing never settles: nothing to see
            guard !kinds.isEmpty else { return }
            let kind = random.pick(kinds)
            var inputs: [Int] = []
            // Sometimes the inputs are pending promises made for it, as many as it has: no input repeats another.
            var fresh: [Int] = []
            if count >= 3, random.chance(kind == "race" ? 40 : 20) {
                for _ in 0..<count {
                    makePending(&random, cancellable: false)
                    fresh.append(nextNode - 1)
                }
            }
            let pending = stillPending.map(\.node)
            // Often every input is still pending (a race most often): which settles first is then up to the steps
            // that follow.
            let pendingShare = pending.count >= 2 && random.chance(kind == "race" ? 60 : 40) ? 100 : 60
            for position in 0..<count {
                if !fresh.isEmpty {
                    inputs.append(fresh[position])
                    continue
                }
                let input =
                    !inputs.isEmpty && random.chance(20)
                    ? random.pick(inputs)
                    : !pending.isEmpty && random.chance(pendingShare) ? random.pick(pending) : random.pick(promises)
                inputs.append(input)
            }
            // Sometimes one input, anywhere, is a promise made settled: a mixture of settled and pending inputs.
            if count > 1, pendingShare < 100, !settledSources.isEmpty, random.chance(30) {
                inputs[random.below(count)] = random.pick(settledSources)
            }
            let made = node()
            defer {
                // Often the inputs still pending then settle, one step each, in an order of their own, or last
                // first.
                if random.chance(60) {
                    let pending = settleable.filter { input in
                        inputs.contains(input.node) && unsettled.contains(input.node)
                    }
                    let order =
                        random.chance(30)
                        ? pending.sorted { inputs.lastIndex(of: $0.node)! > inputs.lastIndex(of: $1.node)! }
                        : random.pick(pending.count, from: pending)
                    for input in order { steps.append(settlement(of: input, &random)) }
                }
            }
            switch kind {
            case "all": steps.append(.make(made, .all(inputs)))
            case "race":
                steps.append(.make(made, .race(inputs)))
                promises.append(made)
            default:
                steps.append(.make(made, .any(inputs)))
                promises.append(made)
            }
        }

        mutating func thenable(_ random: inout SplitMix) -> Program.ThenableSpec {
            Program.ThenableSpec(
                depth: 1 + random.below(random.chance(30) ? 7 : 3),
                ending: random.chance(65) ? .fulfil(value()) : .reject(error()), async: random.chance(50),
                noisy: random.chance(25))
        }
    }
}
