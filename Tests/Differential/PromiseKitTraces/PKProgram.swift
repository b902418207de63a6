// PKProgram.swift: the programs over PromiseKit 8's API, as text, and their generator.
//
// A program is a list of steps separated by "; ". A step that makes a promise names it: `n3=then n1 q1 v5` makes
// node n3 by `n1.then(on: q1) { _ in .value(5) }`. The driver thread runs the steps one at a time and waits for the
// program to go quiet after each (Quiescence). Handlers are named by their step: the handler of step 7 records `h7`.
//
//   n=pending P|G|V          Promise<Int>.pending(), Guarantee<Int>.pending(), Guarantee<Void>.pending()
//   n=value P|G k            Promise.value(k), Guarantee.value(k)
//   n=error e                Promise(error: e)
//   n=firstly r              firstly { r }
//   n=after                  after(seconds: 0)
//   fulfill n k, reject n e, resolve n [k]      the driver settles a pending promise or guarantee
//   n=then s q r, n=map s q b, n=compactMap s q b, n=done s q b, n=get s q b, n=tap s q
//   n=recover s q all|xc r   recover(on:policy:) returning a promise; xc is .allErrorsExceptCancellation
//   n=recoverG s q g         recover(on:) returning a Guarantee
//   n=catch s q all|xc       catch(on:policy:), whose finalizer is the node; finally n q: its finally(on:)
//   n=ensure s q, n=ensureThen s q g
//   n=whenF n…, n=whenR n…, n=race n…       when(fulfilled:), when(resolved:), race over Promise<Int> nodes
//   n=gmap s q k, n=gdone s q, n=gget s q, n=gthen s q g      a Guarantee's own map, done, get and then
//
// q: nil (inline) or one of the serial queues q1, q2. r, what a promise-returning handler gives: vK (.value(K)),
// t:E (throws E), pvK (a promise fulfilled with K), pe:E (a promise rejected with E) or nK (the pending promise nK,
// settled by a later step). b: vK or t:E (and nil for compactMap, ok for done and get). g: gvK (Guarantee.value(K))
// or nK (a pending guarantee). Errors: EK (a plain error), X (PMKError.cancelled), CK (a CancellableError).

import DifferentialCore
import PromiseConformance

/// The generator and the text form of PromiseKit programs.
public enum PKProgram {
    /// The types a node can have.
    enum NodeType: String {
        case promise = "P"
        case voidPromise = "PV"
        case arrayPromise = "PA"
        case guarantee = "G"
        case voidGuarantee = "GV"
        case arrayGuarantee = "GA"
        case resultsGuarantee = "GR"
        case finalizer = "F"

        var isPromise: Bool { [.promise, .voidPromise, .arrayPromise].contains(self) }
        var isGuarantee: Bool { [.guarantee, .voidGuarantee, .arrayGuarantee, .resultsGuarantee].contains(self) }
        /// The guarantee `recover(on:) { … -> Guarantee }` gives for a promise of this type.
        var recovered: NodeType {
            self == .promise ? .guarantee : self == .voidPromise ? .voidGuarantee : .arrayGuarantee
        }
    }

    /// The kind of a step: its operation, as the coverage table counts it.
    public static func kind(_ step: Substring) -> String {
        let words = ProgramText.operation(step)
        guard let op = words.first else { return "?" }
        switch op {
        case "pending", "value": return "\(op) \(words.count > 1 ? words[1] : "")"
        case "recover", "catch": return "\(op) \(words.count > 3 ? words[3] : "")"
        case "then", "firstly":
            return "\(op) → \(ProgramText.shape(words.last ?? ""))"
        default: return String(op)
        }
    }

    /// The program of `seed`: 6 to 20 steps over PromiseKit's API (sometimes with a long inline chain).
    public static func generate(seed: UInt64) -> String {
        var random = SplitMix(seed: seed)
        var types: [NodeType] = []
        var open: Set<Int> = []  // pending nodes the driver has not settled yet
        var steps: [String] = []
        let queues = ["nil", "nil", "q1", "q2"]

        func node(_ type: NodeType, _ text: String) {
            steps.append("n\(types.count)=\(text)")
            types.append(type)
        }
        func nodes(_ filter: (NodeType) -> Bool) -> [Int] { types.indices.filter { filter(types[$0]) } }
        func error() -> String {
            random.chance(20) ? "X" : random.chance(20) ? "C\(random.below(5))" : "E\(random.below(5))"
        }
        func openNode(_ type: NodeType) -> Int? {
            let candidates = open.filter { types[$0] == type }.sorted()
            return candidates.isEmpty ? nil : random.pick(candidates)
        }
        func returned() -> String {  // what a promise-returning handler gives
            switch random.below(7) {
            case 0: return "t:\(error())"
            case 1: return "pv\(random.below(10))"
            case 2: return "pe:\(error())"
            case 3, 4: if let n = openNode(.promise) { return "n\(n)" }
            default: break
            }
            return "v\(random.below(10))"
        }
        func guaranteeReturned(_ type: NodeType) -> String {
            if random.chance(35), let n = openNode(type) { return "n\(n)" }
            return type == .voidGuarantee ? "gv" : "gv\(random.below(10))"
        }
        func value() -> String { random.chance(20) ? "t:\(error())" : "v\(random.below(10))" }

        let length = 6 + random.below(15)
        while steps.count < length {
            let q = random.pick(queues)
            let promises = nodes(\.isPromise)
            let guarantees = nodes(\.isGuarantee)
            switch random.below(32) {
            case 0...2 where types.count < 3 || random.chance(40):
                let type = random.pick([NodeType.promise, .promise, .guarantee, .voidGuarantee])
                node(type, "pending \(type == .voidGuarantee ? "V" : type.rawValue)")
                open.insert(types.count - 1)
            case 3:
                let type = random.pick([NodeType.promise, .guarantee])
                node(type, "value \(type.rawValue) \(random.below(10))")
            case 4: node(.promise, "error \(error())")
            case 5:
                let pending = random.chance(30) ? openNode(.promise).map { "n\($0)" } : nil
                node(.promise, "firstly \(pending ?? returned())")
            case 6: node(.voidGuarantee, "after")
            case 7...10 where !open.isEmpty:
                let n = open.sorted()[random.below(open.count)]
                open.remove(n)
                switch types[n] {
                case .promise:
                    steps.append(random.chance(50) ? "fulfill n\(n) \(random.below(10))" : "reject n\(n) \(error())")
                case .guarantee: steps.append("resolve n\(n) \(random.below(10))")
                default: steps.append("resolve n\(n)")
                }
            case 11...23 where !promises.isEmpty:
                let s = random.pick(promises)
                let type = types[s]
                switch random.below(13) {
                case 0, 1: node(.promise, "then n\(s) \(q) \(returned())")
                case 2: node(.promise, "map n\(s) \(q) \(value())")
                case 3: node(.promise, "compactMap n\(s) \(q) \(random.chance(30) ? "nil" : value())")
                case 4: node(.voidPromise, "done n\(s) \(q) \(random.chance(25) ? "t:\(error())" : "ok")")
                case 5: node(type, "get n\(s) \(q) \(random.chance(25) ? "t:\(error())" : "ok")")
                case 6: node(type, "tap n\(s) \(q)")
                case 7, 8:
                    let r = type == .promise ? returned() : random.chance(50) ? "t:\(error())" : "pe:\(error())"
                    node(type, "recover n\(s) \(q) \(random.pick(["all", "xc"])) \(r)")
                case 9: node(type.recovered, "recoverG n\(s) \(q) \(guaranteeReturned(type.recovered))")
                case 10: node(.finalizer, "catch n\(s) \(q) \(random.pick(["all", "xc"]))")
                case 11: node(type, "ensure n\(s) \(q)")
                default: node(type, "ensureThen n\(s) \(q) \(guaranteeReturned(.voidGuarantee))")
                }
            case 24...25 where !nodes({ $0 == .finalizer }).isEmpty:
                steps.append("finally n\(random.pick(nodes { $0 == .finalizer })) \(q)")
            case 26...27 where nodes({ $0 == .promise }).count >= 2:
                let count = 2 + random.below(3)
                let inputs = random.pick(count, from: nodes { $0 == .promise })
                let list = inputs.map { "n\($0)" }.joined(separator: " ")
                switch random.below(3) {
                case 0: node(.arrayPromise, "whenF \(list)")
                case 1: node(.resultsGuarantee, "whenR \(list)")
                default: node(.promise, "race \(list)")
                }
            case 28...30 where !guarantees.isEmpty:
                let s = random.pick(guarantees)
                switch random.below(4) {
                case 0: node(.guarantee, "gmap n\(s) \(q) \(random.below(10))")
                case 1: node(.voidGuarantee, "gdone n\(s) \(q)")
                case 2: node(types[s], "gget n\(s) \(q)")
                default: node(.guarantee, "gthen n\(s) \(q) \(guaranteeReturned(.guarantee))")
                }
            case 31 where !promises.isEmpty && random.chance(40):
                // A long inline chain: enough `map(on: nil)` handlers to nest deeply when its head settles.
                var s = random.pick(nodes { $0 == .promise })
                for _ in 0..<(12 + random.below(20)) {
                    node(.promise, "map n\(s) nil v\(random.below(10))")
                    s = types.count - 1
                }
            default: break
            }
        }
        // Settle most of what is still open, so that late handlers run too.
        for n in open.sorted() where random.chance(70) {
            switch types[n] {
            case .promise:
                steps.append(random.chance(50) ? "fulfill n\(n) \(random.below(10))" : "reject n\(n) \(error())")
            case .guarantee: steps.append("resolve n\(n) \(random.below(10))")
            default: steps.append("resolve n\(n)")
            }
        }
        return steps.joined(separator: "; ")
    }
}
