// BoltsProgram.swift: the programs over Bolts-Swift 1.5.0's API, as text, and their generator.
//
// A program is a list of steps separated by "; ". A step that makes a task names it: `n3=with n1 q1 v5` makes node n3
// by `n1.continueWith(.queue(q1)) { _ in 5 }`. The driver thread runs the steps one at a time and waits for the
// program to go quiet after each (Quiescence). Handlers are named by their step: the handler of step 7 records `h7`.
//
//   n=tcs                                BFTaskCompletionSource<Int>(); the node is its task
//   n=value k, n=error e, n=cancelled    BFTask(k), BFTask(error: e), BFTask<Int>.cancelledTask()
//   set n k, fail n e, cancel n          the driver completes a source: set(result:), set(error:), cancel()
//   tryset n k, tryfail n e, trycancel n trySet(result:), trySet(error:), tryCancel(); step 7 records `t7(true)`
//   n=with s x b, n=withTask s x r       continueWith, continueWithTask (the handler records the task's state)
//   n=succ s x b, n=succTask s x r       continueOnSuccessWith, continueOnSuccessWithTask
//   n=err s x b, n=errTask s x r         continueOnErrorWith, continueOnErrorWithTask (any error)
//   n=errT s x b, n=errTaskT s x r       their typed forms, `{ (error: ProgramError) in … }`: other errors pass
//   n=exec x b, n=execTask x r           BFTask.execute(x) { … }, BFTask.executeWithTask(x) { … }
//   n=init x b                           BFTask(x) { … }
//   n=whenAll n…, n=whenAllR n…, n=whenAny n…    whenAll, whenAllResult, whenAny over BFTask<Int> nodes
//
// x, the executor: d (.default), i (.immediate), q1, q2 (.queue of the serial queue), c (.closure { $0() }), e
// (.escapingClosure { q2.async(execute: $0) }). b, what a value-returning handler does: vK (returns K) or t:E (throws
// E). r, what a task-returning handler does: vK (BFTask(K)), t:E (throws E), e:E (BFTask(error: E)), x
// (cancelledTask()) or nK (the pending task of source nK, completed by a later step). Errors: EK (a plain error), X
// (BFCancelledError: thrown, it cancels). Node types: I (BFTask<Int>), V (BFTask<Void>), A (BFTask<[Int]>); a handler
// of an error continuation returns the source's type (K, (), [K]).
//
// Some programs have a long chain: 25 to 40 `.default` continuations, each on the one before (enough to cross
// `.default`'s inline depth limit when its head completes), or, less often, 66 to 80 `.immediate` ones.

import DifferentialCore
import PromiseConformance

/// The generator and the text form of Bolts programs.
public enum BoltsProgram {
    /// The types a node can have.
    enum NodeType: String {
        /// BFTask<Int>.
        case int = "I"
        /// BFTask<Void>, from `whenAll`, `whenAny` and continuations returning nothing.
        case void = "V"
        /// BFTask<[Int]>, from `whenAllResult`.
        case array = "A"
    }

    /// The executors of the text form, and how `kind` names them.
    static let executorNames = [
        "d": ".default", "i": ".immediate", "q1": ".queue", "q2": ".queue", "c": ".closure", "e": ".escapingClosure",
    ]

    /// The kind of a step: its operation and what its handler does, as the coverage table counts it.
    public static func kind(_ step: Substring) -> String {
        let words = ProgramText.operation(step)
        guard let op = words.first else { return "?" }
        switch op {
        case "with", "succ", "err", "errT", "exec", "init":
            return "\(op) → \((words.last ?? "").hasPrefix("t:") ? "throws" : "value")"
        case "withTask", "succTask", "errTask", "errTaskT", "execTask":
            let r = words.last ?? ""
            let shape =
                r.hasPrefix("n")
                ? "pending task"
                : r.hasPrefix("e:")
                    ? "failed task"
                    : r == "x"
                        ? "cancelled task"
                        : r.hasPrefix("t:") ? "throws" : "value task"
            return "\(op) → \(shape)"
        default: return String(op)
        }
    }

    /// The executor of a step, `executor .queue` and the like, or nil if it has none.
    static func executorKind(_ step: Substring) -> String? {
        let words = ProgramText.operation(step)
        guard let op = words.first else { return nil }
        switch op {
        case "with", "withTask", "succ", "succTask", "err", "errTask", "errT", "errTaskT":
            return words.count > 2 ? executorNames[String(words[2])].map { "executor \($0)" } : nil
        case "exec", "execTask", "init":
            return words.count > 1 ? executorNames[String(words[1])].map { "executor \($0)" } : nil
        default: return nil
        }
    }

    /// The kinds the coverage table counts for `program`: each step's kind, then its executor's (`executor .default`)
    /// if it has one, and `long chain .default` (or `.immediate`) once for each long chain.
    public static func kinds(_ program: String) -> [String] {
        let steps = program.split(separator: ";").map { Substring($0.drop(while: { $0 == " " })) }
        var kinds: [String] = []
        for step in steps {
            kinds.append(kind(step))
            if let executor = executorKind(step) { kinds.append(executor) }
        }
        // A long chain: 25 or more continuations in a row on one executor, each on the node the one before made.
        var run = 0
        var last: (node: String, executor: String)? = nil
        func endRun() {
            if run >= 25, let last { kinds.append("long chain \(executorNames[last.executor] ?? "?")") }
            run = 0
        }
        for step in steps {
            let parts = step.split(separator: "=", maxSplits: 1)
            let words = (parts.last ?? step).split(separator: " ")
            let isLink = parts.count == 2 && ["with", "succ"].contains(words.first ?? "") && words.count > 2
            if isLink, let previous = last, words[1] == previous.node, words[2] == previous.executor {
                run += 1
            } else {
                endRun()
                run = isLink ? 1 : 0
            }
            last = isLink ? (String(parts[0]), String(words[2])) : nil
        }
        endRun()
        return kinds
    }

    /// The program of `seed`: 6 to 20 steps over Bolts-Swift's API (sometimes with a long chain).
    public static func generate(seed: UInt64) -> String {
        var random = SplitMix(seed: seed)
        var types: [NodeType] = []
        var sources: [Int] = []  // the nodes made by `tcs`
        var open: Set<Int> = []  // sources the driver has not completed yet
        var steps: [String] = []
        let executors = ["d", "d", "i", "q1", "q2", "c", "e"]

        // How deeply nested a node's completion runs, counted in inline continuations from a task the driver or a
        // queue completes, and whether it may complete on a global queue (past `.default`'s depth limit, 21 nested
        // runs in Bolts-Swift, 12 leaves room for the combinators' and the followed tasks' own nesting). Work on a
        // global queue runs beside the driver and the program's queues, so a continuation there must not hand work
        // to a queue: which of two threads reaches a queue first would decide the queue's order. On such a "hopping"
        // task, and on everything after it, continuations run inline only.
        var depths: [Int] = []
        var hopping: [Bool] = []
        let queued: Set<String> = ["q1", "q2", "e"]
        func node(_ type: NodeType, _ text: String, after inputs: [Int] = [], executor: String? = nil) {
            let depth = executor.map { queued.contains($0) } == true ? 0 : (inputs.map { depths[$0] }.max() ?? -1) + 1
            steps.append("n\(types.count)=\(text)")
            types.append(type)
            depths.append(depth)
            hopping.append(depth >= 12 || inputs.contains { hopping[$0] })
        }
        /// An executor for a continuation on `source`: any, unless the source may complete on a global queue.
        func executor(on source: Int, _ x: String) -> String {
            hopping[source] && queued.contains(x) ? random.pick(["d", "i", "c"]) : x
        }
        func error() -> String { random.chance(20) ? "X" : "E\(random.below(5))" }
        func openSource() -> Int? { open.isEmpty ? nil : open.sorted()[random.below(open.count)] }
        func valueReturned() -> String { random.chance(25) ? "t:\(error())" : "v\(random.below(10))" }
        func taskReturned(_ type: NodeType) -> String {  // what a task-returning handler gives
            switch random.below(8) {
            case 0: return "t:\(error())"
            case 1: return "e:\(error())"
            case 2: return "x"
            case 3, 4, 5: if type == .int, let n = openSource() { return "n\(n)" }
            default: break
            }
            return "v\(random.below(10))"
        }
        func complete(_ n: Int) {
            switch random.below(6) {
            case 0: steps.append("set n\(n) \(random.below(10))")
            case 1: steps.append("fail n\(n) \(error())")
            case 2: steps.append("cancel n\(n)")
            case 3: steps.append("tryset n\(n) \(random.below(10))")
            case 4: steps.append("tryfail n\(n) \(error())")
            default: steps.append("trycancel n\(n)")
            }
        }

        let length = 6 + random.below(15)
        var chained = 0  // the steps of long chains, which the length leaves out
        while steps.count - chained < length {
            let x = random.pick(executors)
            switch random.below(32) {
            case 0...2 where types.count < 3 || random.chance(40):
                node(.int, "tcs")
                sources.append(types.count - 1)
                open.insert(types.count - 1)
            case 3: node(.int, "value \(random.below(10))")
            case 4: node(.int, "error \(error())")
            case 5: node(.int, "cancelled")
            case 6...9 where !open.isEmpty:
                let n = openSource()!
                open.remove(n)
                complete(n)
            case 10 where !sources.isEmpty:
                // A try form on any source, completed or not: on a completed one it returns false.
                let n = random.pick(sources)
                open.remove(n)
                switch random.below(3) {
                case 0: steps.append("tryset n\(n) \(random.below(10))")
                case 1: steps.append("tryfail n\(n) \(error())")
                default: steps.append("trycancel n\(n)")
                }
            case 11...24 where !types.isEmpty:
                let s = random.below(types.count)
                let type = types[s]
                let x = executor(on: s, x)
                let text: (NodeType, String)
                switch random.below(8) {
                case 0: text = (.int, "with n\(s) \(x) \(valueReturned())")
                case 1: text = (.int, "withTask n\(s) \(x) \(taskReturned(.int))")
                case 2: text = (.int, "succ n\(s) \(x) \(valueReturned())")
                case 3: text = (.int, "succTask n\(s) \(x) \(taskReturned(.int))")
                case 4: text = (type, "err n\(s) \(x) \(valueReturned())")
                case 5: text = (type, "errTask n\(s) \(x) \(taskReturned(type))")
                case 6: text = (type, "errT n\(s) \(x) \(valueReturned())")
                default: text = (type, "errTaskT n\(s) \(x) \(taskReturned(type))")
                }
                // A task the handler returns (a pending source, `nK`) is followed: the node completes after it too.
                let returned = text.1.split(separator: " ").last.flatMap {
                    $0.hasPrefix("n") ? Int($0.dropFirst()) : nil
                }
                node(text.0, text.1, after: [s] + (returned.map { [$0] } ?? []), executor: x)
            case 25...28:
                switch random.below(3) {
                case 0: node(.int, "exec \(x) \(valueReturned())")
                case 1: node(.int, "execTask \(x) \(taskReturned(.int))")
                default: node(.int, "init \(x) \(valueReturned())")
                }
            case 29...30 where types.indices.filter({ types[$0] == .int && !hopping[$0] }).count >= 2:
                // Not over a task that may complete on a global queue: which input completes last, there or here,
                // would decide on which thread the combined task completes.
                let ints = types.indices.filter { types[$0] == .int && !hopping[$0] }
                let count = 2 + random.below(3)
                let inputs = random.pick(count, from: ints)
                let list = inputs.map { "n\($0)" }.joined(separator: " ")
                switch random.below(3) {
                case 0: node(.void, "whenAll \(list)", after: inputs)
                case 1: node(.array, "whenAllR \(list)", after: inputs)
                default: node(.void, "whenAny \(list)", after: inputs)
                }
            case 31 where random.chance(50):
                // A long chain on a pending source, so that its continuations nest when the source completes.
                var s: Int
                if let n = openSource() {
                    s = n
                } else {
                    node(.int, "tcs")
                    s = types.count - 1
                    sources.append(s)
                    open.insert(s)
                }
                let immediate = random.chance(30)
                let links = immediate ? 66 + random.below(15) : 25 + random.below(16)
                chained += links
                for _ in 0..<links {
                    let x = immediate ? "i" : "d"
                    node(
                        .int, "\(random.chance(70) ? "with" : "succ") n\(s) \(x) v\(random.below(10))", after: [s],
                        executor: x)
                    s = types.count - 1
                }
            default: break
            }
        }
        // Complete most of what is still open, so that late handlers run too.
        for n in open.sorted() where random.chance(80) { complete(n) }
        return steps.joined(separator: "; ")
    }
}
