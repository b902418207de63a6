// FBLProgram.swift: the programs over Google Promises' Swift API, as text, and their generator.
//
// A program is a list of steps separated by "; ". A step that makes a promise names it: `n3=then n1 q1 v5` makes
// node n3 by `n1.then(on: q1) { _ in 5 }`. The driver thread runs the steps one at a time and waits for the program
// to go quiet after each (Quiescence). Handlers are named by their step: the handler of step 7 records `h7`.
//
//   n=pending                Promise<Int>.pending()
//   n=value k                Promise(k)
//   n=error e                Promise<Int>(e)
//   fulfill n k, reject n e  the driver settles a pending promise
//   n=then s q r             then(on:) returning a value, throwing, returning nothing or returning a promise
//   n=catch s q              catch(on:)
//   n=recover s q r          recover(on:) returning a value, throwing or returning a promise (on Promise<Int> only)
//   n=always s q             always(on:)
//   n=validate s q ok|no     validate(on:) with a predicate that holds or fails
//   n=all q n…, n=race q n…, n=any q n…      all(on:), race(on:), any(on:) over Promise<Int> nodes
//
// Nodes are Promise<Int>, except that `all` makes a Promise<[Int]> and `any` a Promise<[Maybe<Int>]>; a `then`
// returning nothing keeps its source's type, and any other `then` makes a Promise<Int>.
// q: one of the serial queues q1, q2, or m, which stands for the default queue (`DispatchQueue.promises`, which the
// recording sets to the run's queue m): Google's API has no inline option, every block is dispatched. r, what a handler gives: vK (the
// value K), t:E (throws E), ok (`then` only: the block returns nothing and the value passes on), pvK (a promise
// fulfilled with K), pe:E (a promise rejected with E) or nK (the pending promise nK, settled by a later step).
// Errors: EK (a plain error); a failed validation rejects with V (`PromiseError.validationFailure`).

import DifferentialCore
import PromiseConformance

/// The generator and the text form of Google Promises programs.
public enum FBLProgram {
    /// The types a node can have.
    enum NodeType: String {
        /// Promise<Int>.
        case int = "I"
        /// Promise<[Int]>, from `all`.
        case array = "A"
        /// Promise<[Maybe<Int>]>, from `any`.
        case maybes = "Y"
    }

    /// The kind of a step: its operation, as the coverage table counts it.
    public static func kind(_ step: Substring) -> String {
        let words = ProgramText.operation(step)
        guard let op = words.first else { return "?" }
        switch op {
        case "then", "recover":
            return "\(op) → \(ProgramText.shape(words.last ?? ""))"
        case "validate": return "validate \(words.last ?? "")"
        default: return String(op)
        }
    }

    /// The kinds of the steps of `program`.
    public static func kinds(_ program: String) -> [String] {
        program.split(separator: ";").map { kind(Substring($0.drop(while: { $0 == " " }))) }
    }

    /// The program of `seed`: 6 to 20 steps over Google Promises' Swift API.
    public static func generate(seed: UInt64) -> String {
        var random = SplitMix(seed: seed)
        var types: [NodeType] = []
        var open: [Int] = []  // pending nodes the driver has not settled yet, in the order they were made
        var steps: [String] = []
        let queues = ["m", "m", "q1", "q2"]

        func node(_ type: NodeType, _ text: String) {
            steps.append("n\(types.count)=\(text)")
            types.append(type)
        }
        func nodes(_ type: NodeType?) -> [Int] { types.indices.filter { type == nil || types[$0] == type } }
        func error() -> String { "E\(random.below(5))" }
        func returned(then: Bool) -> String {  // what a handler gives
            switch random.below(then ? 9 : 8) {
            case 0: return "t:\(error())"
            case 1: return "pv\(random.below(10))"
            case 2: return "pe:\(error())"
            case 3, 4, 5: if !open.isEmpty { return "n\(open[random.below(open.count)])" }
            case 8: return "ok"
            default: break
            }
            return "v\(random.below(10))"
        }
        func settle(_ n: Int) -> String {
            random.chance(50) ? "fulfill n\(n) \(random.below(10))" : "reject n\(n) \(error())"
        }

        let length = 6 + random.below(15)
        while steps.count < length {
            let q = random.pick(queues)
            let ints = nodes(.int)
            switch random.below(30) {
            case 0...3 where types.count < 3 || random.chance(50):
                node(.int, "pending")
                open.append(types.count - 1)
            case 4: node(.int, "value \(random.below(10))")
            case 5: node(.int, "error \(error())")
            case 6...9 where !open.isEmpty:
                steps.append(settle(open.remove(at: random.below(open.count))))
            case 10...15 where !types.isEmpty:
                let s = random.pick(nodes(nil))
                let r = returned(then: true)
                node(r == "ok" ? types[s] : .int, "then n\(s) \(q) \(r)")
            case 16...17 where !types.isEmpty:
                let s = random.pick(nodes(nil))
                node(types[s], "catch n\(s) \(q)")
            case 18...20 where !ints.isEmpty:
                node(.int, "recover n\(random.pick(ints)) \(q) \(returned(then: false))")
            case 21...22 where !types.isEmpty:
                let s = random.pick(nodes(nil))
                node(types[s], "always n\(s) \(q)")
            case 23...24 where !types.isEmpty:
                let s = random.pick(nodes(nil))
                node(types[s], "validate n\(s) \(q) \(random.chance(70) ? "ok" : "no")")
            case 25...29 where ints.count >= 2:
                let count = 1 + random.below(4)
                let inputs = random.pick(count, from: ints)
                let list = inputs.map { "n\($0)" }.joined(separator: " ")
                switch random.below(3) {
                case 0: node(.array, "all \(q) \(list)")
                case 1: node(.int, "race \(q) \(list)")
                default: node(.maybes, "any \(q) \(list)")
                }
            default: break
            }
        }
        // Settle most of what is still open, so that late handlers run too.
        for n in open where random.chance(70) { steps.append(settle(n)) }
        return steps.joined(separator: "; ")
    }
}
