// PKInterpreter.swift: runs a PKProgram through PromiseKit 8's API and records its trace.
//
// Written against PromiseKit's own names: the recording package compiles this file against PromiseKit 8.2.0, this
// repository against PromiseKitStyle (docs/differential-traces.md).

import DifferentialCore
import Foundation

#if canImport(PromiseKit)
    import PromiseKit
#else
    import PromiseKitStyle
#endif

/// The PromiseKit interpreter of the differential traces.
public enum PKInterpreter: TraceInterpreter {
    /// The original the golden traces were recorded on.
    public static let original = "PromiseKit 8.2.0"
    /// The golden file of this original.
    public static let goldenFileName = "PromiseKit-8.2.0.jsonl"
    /// The original, as its golden file's header names it.
    public static let originalLibrary = TracedLibrary(
        name: "PromiseKit", version: "8.2.0", repository: "https://github.com/mxcl/PromiseKit", isOriginal: true)
    #if canImport(PromiseKit)
        /// The library this source was compiled against: the original, in the recording package.
        public static let compiledAgainst = originalLibrary
    #else
        /// The library this source was compiled against: our style.
        public static let compiledAgainst = TracedLibrary.style("PromiseKitStyle")
    #endif

    /// The generated program of `seed` (PKProgram).
    public static func program(seed: UInt64) -> String { PKProgram.generate(seed: seed) }

    /// The kind of each step of `program`.
    public static func stepKinds(_ program: String) -> [String] {
        program.split(separator: ";").map { PKProgram.kind(Substring($0.drop(while: { $0 == " " }))) }
    }

    /// Runs `program` on the calling thread, the driver. For its duration `conf.Q`, the queues PromiseKit's defaults
    /// name (the main queue unless set), is the program's serial queue `m`, whose events are a lane of their own:
    /// PromiseKit settles some promises through it (`ensureThen` does), and the main queue would depend on the main
    /// thread serving it. `conf` is process-wide: a caller that runs other PromiseKit code meanwhile must keep it out.
    public static func run(_ program: String) -> ProgramTrace {
        let saved = (conf.Q, conf.logHandler)
        conf.logHandler = { _ in }  // pending promises are dropped on purpose; keep the log quiet
        defer { (conf.Q, conf.logHandler) = saved }
        func runOnce() -> ProgramTrace {  // the run and its promises are gone before the log handler is restored
            let run = PKRun()
            defer { run.tearDown() }
            conf.Q = (map: run.m, return: run.m)
            return run.run(program)
        }
        return runOnce()
    }
}

/// A plain error of a program: `E3`.
struct ProgramError: Error {
    let id: Int
}

/// A cancellation error of a program's own type: `C3`.
struct ProgramCancellation: CancellableError {
    let id: Int
    var isCancelled: Bool { true }
}

/// One of the program's promises, with the type it has.
enum PKNode {
    case p(Promise<Int>)
    case pv(Promise<Void>)
    case pa(Promise<[Int]>)
    case g(Guarantee<Int>)
    case gv(Guarantee<Void>)
    case ga(Guarantee<[Int]>)
    case gr(Guarantee<[Result<Int>]>)
    case finalizer(PMKFinalizer)

    /// How the node stands: `p` (pending), `f:VALUE`, `r:ERROR`, or `-` for a finalizer.
    var state: String {
        func text<T>(_ result: Result<T>?) -> String {
            switch result {
            case nil: return "p"
            case .fulfilled(let value)?: return "f:\(describe(value))"
            case .rejected(let error)?: return "r:\(describe(error))"
            }
        }
        func text<T>(_ value: T?) -> String { value.map { "f:\(describe($0))" } ?? "p" }
        switch self {
        case .p(let p): return text(p.result)
        case .pv(let p): return text(p.result)
        case .pa(let p): return text(p.result)
        case .g(let g): return text(g.value)
        case .gv(let g): return text(g.value)
        case .ga(let g): return text(g.value)
        case .gr(let g): return text(g.value)
        case .finalizer: return "-"
        }
    }

    /// Nil while pending; otherwise whether it fulfilled, and if not whether its error is a cancellation.
    var outcome: (fulfilled: Bool, cancelled: Bool)? {
        func outcome<T>(_ result: Result<T>?) -> (Bool, Bool)? {
            switch result {
            case nil: return nil
            case .fulfilled?: return (true, false)
            case .rejected(let error)?: return (false, error.isCancelled)
            }
        }
        switch self {
        case .p(let p): return outcome(p.result)
        case .pv(let p): return outcome(p.result)
        case .pa(let p): return outcome(p.result)
        case .g(let g): return g.isResolved ? (true, false) : nil
        case .gv(let g): return g.isResolved ? (true, false) : nil
        case .ga(let g): return g.isResolved ? (true, false) : nil
        case .gr(let g): return g.isResolved ? (true, false) : nil
        case .finalizer: return nil
        }
    }

    var isResolved: Bool { outcome != nil }
}

/// How a value or error reads in a trace.
func describe(_ value: Any) -> String {
    switch value {
    case let int as Int: return "\(int)"
    case is Void: return "()"
    case let ints as [Int]: return "[" + ints.map(String.init).joined(separator: ",") + "]"
    case let results as [Result<Int>]:
        return "["
            + results.map {
                switch $0 {
                case .fulfilled(let value): return "f:\(value)"
                case .rejected(let error): return "r:\(describe(error))"
                }
            }.joined(separator: ",") + "]"
    case let error as ProgramError: return "E\(error.id)"
    case let error as ProgramCancellation: return "C\(error.id)"
    case let error as PMKError:
        switch error {
        case .cancelled: return "X"
        case .compactMap: return "pmk.compactMap"
        case .returnedSelf: return "pmk.returnedSelf"
        default: return "pmk.other"
        }
    default: return "?\(type(of: value))"
    }
}

/// One run of one program: the driver's state.
final class PKRun: @unchecked Sendable {
    /// The program's trace and what its handlers did.
    let ledger = HandlerLedger()
    var log: TraceLog { ledger.log }
    lazy var q1 = log.makeQueue("q1")
    lazy var q2 = log.makeQueue("q2")
    lazy var m = log.makeQueue("m")
    var nodes: [PKNode] = []
    var pendingPromises: [Int: Resolver<Int>] = [:]
    var pendingGuarantees: [Int: (Int) -> Void] = [:]
    var pendingVoidGuarantees: [Int: () -> Void] = [:]

    func run(_ program: String) -> ProgramTrace {
        ProgramText.run(
            program, log: log, perform: perform, isQuiet: { ledger.expectationsHold },
            final: { nodes.map(\.state) })
    }

    /// Lets what is left on the queues run (`TraceLog.finish`), then lets go of the promises: a pending promise keeps its handlers, which keep this run.
    func tearDown() {
        log.finish()
        ledger.forgetExpectations()
        pendingPromises = [:]
        pendingGuarantees = [:]
        pendingVoidGuarantees = [:]
        nodes = []
    }

    // MARK: Handlers

    /// Records that handler `step` ran with `input`.
    func ran(_ step: Int, _ input: String) { ledger.ran(step, input) }

    /// Whether the promise handler `step` returned (if it returned a pending node of the program) has settled.
    func returnedSettled(_ step: Int) -> Bool { ledger.returnedNode(step).map { nodes[$0].isResolved } ?? true }

    func queue(_ name: String) -> DispatchQueue? {
        name == "q1" ? q1 : name == "q2" ? q2 : nil
    }

    func error(_ text: Substring) -> Error {
        switch text.first {
        case "X": return PMKError.cancelled
        case "C": return ProgramCancellation(id: Int(text.dropFirst())!)
        default: return ProgramError(id: Int(text.dropFirst())!)
        }
    }

    /// `k` as a value of the type `T` a node holds (Int, Void or [Int]).
    func value<T>(_ k: Int, as _: T.Type) -> T {
        if T.self == Void.self { return () as! T }
        if T.self == [Int].self { return [k] as! T }
        return k as! T
    }

    /// What a promise-returning handler of `step` gives, by the program's `r`.
    func promise<T>(_ r: String, step: Int, as _: T.Type) throws -> Promise<T> {
        if r.hasPrefix("t:") { throw error(r.dropFirst(2)) }
        if r.hasPrefix("pe:") { return Promise(error: error(r.dropFirst(3))) }
        if r.hasPrefix("pv") { return .value(value(Int(r.dropFirst(2))!, as: T.self)) }
        if r.hasPrefix("n"), case .p(let pending) = nodes[Int(r.dropFirst())!] {
            ledger.returning(step, Int(r.dropFirst())!)
            return pending as! Promise<T>
        }
        return .value(value(Int(r.dropFirst())!, as: T.self))
    }

    /// What a guarantee-returning handler of `step` gives, by the program's `g`.
    func guarantee<T>(_ g: String, step: Int, as _: T.Type) -> Guarantee<T> {
        if g.hasPrefix("n") {
            let n = Int(g.dropFirst())!
            ledger.returning(step, n)
            switch nodes[n] {
            case .g(let pending): return pending as! Guarantee<T>
            case .gv(let pending): return pending as! Guarantee<T>
            default: fatalError("not a pending guarantee: \(g)")
            }
        }
        return .value(value(Int(g.dropFirst(2)) ?? 0, as: T.self))
    }

    /// The expectation of a handler of `step` on `source`: once the source settles, it runs if `due` says so.
    func expect(_ step: Int, on source: Int, due: @escaping ((fulfilled: Bool, cancelled: Bool)) -> Bool) {
        ledger.expectRun(step) { [unowned self] in nodes[source].outcome.map(due) ?? false }
    }

    /// The expectation of a new node made at `step`: once `due` holds it settles.
    func expectSettled(_ node: Int, due: @escaping () -> Bool) {
        ledger.expect({ [unowned self] in nodes[node].isResolved }, when: due)
    }

    // MARK: Steps

    func perform(_ step: Int, _ words: [String]) {
        let op = String(words[0].split(separator: "=").last!)  // `n3=then` makes node n3, the next one
        let args = Array(words.dropFirst())
        switch op {
        case "pending", "value", "error", "firstly", "after", "whenF", "whenR", "race":
            nodes.append(make(step, op, args))
        case "fulfill": pendingPromises[Int(args[0].dropFirst())!]!.fulfill(Int(args[1])!)
        case "reject": pendingPromises[Int(args[0].dropFirst())!]!.reject(error(Substring(args[1])))
        case "resolve":
            let n = Int(args[0].dropFirst())!
            if args.count > 1 { pendingGuarantees[n]!(Int(args[1])!) } else { pendingVoidGuarantees[n]!() }
        case "finally":
            let n = Int(args[0].dropFirst())!
            guard case .finalizer(let finalizer) = nodes[n] else { fatalError("not a finalizer: \(args[0])") }
            finalizer.finally(on: queue(args[1])) { self.ran(step, "") }
            // The finalizer ends once the caught promise settles (and its catch handler, if due, has run).
            let caught = catchSources[n]!
            expect(step, on: caught) { _ in true }
        default:
            let source = Int(args[0].dropFirst())!
            let node: PKNode
            switch nodes[source] {
            case .p(let p): node = derive(p, step, op, args, source, wrap: PKNode.p, wrapG: PKNode.g)
            case .pv(let p): node = derive(p, step, op, args, source, wrap: PKNode.pv, wrapG: PKNode.gv)
            case .pa(let p): node = derive(p, step, op, args, source, wrap: PKNode.pa, wrapG: PKNode.ga)
            case .g(let g): node = deriveG(g, step, op, args, source, wrap: PKNode.g)
            case .gv(let g): node = deriveG(g, step, op, args, source, wrap: PKNode.gv)
            case .ga(let g): node = deriveG(g, step, op, args, source, wrap: PKNode.ga)
            case .gr(let g): node = deriveG(g, step, op, args, source, wrap: PKNode.gr)
            case .finalizer: fatalError("a finalizer has no \(op)")
            }
            nodes.append(node)
        }
    }

    /// The source of each finalizer node.
    var catchSources: [Int: Int] = [:]

    /// A node that needs no source: pending, value, error, firstly, after and the combinators.
    func make(_ step: Int, _ op: String, _ args: [String]) -> PKNode {
        let n = nodes.count
        switch op {
        case "pending" where args[0] == "P":
            let (promise, resolver) = Promise<Int>.pending()
            pendingPromises[n] = resolver
            return .p(promise)
        case "pending" where args[0] == "G":
            let (guarantee, resolve) = Guarantee<Int>.pending()
            pendingGuarantees[n] = resolve
            return .g(guarantee)
        case "pending":
            let (guarantee, resolve) = Guarantee<Void>.pending()
            pendingVoidGuarantees[n] = { resolve(()) }
            return .gv(guarantee)
        case "value" where args[0] == "G": return .g(.value(Int(args[1])!))
        case "value": return .p(.value(Int(args[1])!))
        case "error": return .p(Promise(error: error(Substring(args[0]))))
        case "firstly":
            let promise = firstly { () throws -> Promise<Int> in
                self.ran(step, "")
                return try self.promise(args[0], step: step, as: Int.self)
            }
            expectSettled(n) { [unowned self] in returnedSettled(step) }
            return .p(promise)
        case "after":
            expectSettled(n) { true }
            return .gv(after(seconds: 0))
        default:
            let inputs = args.map { Int($0.dropFirst())! }
            let promises = inputs.map { input -> Promise<Int> in
                guard case .p(let p) = nodes[input] else { fatalError("not a Promise<Int>: n\(input)") }
                return p
            }
            switch op {
            case "whenF":
                expectSettled(n) { [unowned self] in
                    let outcomes = inputs.map { nodes[$0].outcome }
                    return outcomes.contains { $0?.fulfilled == false } || outcomes.allSatisfy { $0 != nil }
                }
                return .pa(when(fulfilled: promises))
            case "whenR":
                expectSettled(n) { [unowned self] in inputs.allSatisfy { nodes[$0].isResolved } }
                return .gr(when(resolved: promises))
            default:
                expectSettled(n) { [unowned self] in inputs.contains { nodes[$0].isResolved } }
                return .p(race(promises))
            }
        }
    }

    /// A node derived from a promise: `then`, `map`, `recover`, `catch` and the rest.
    func derive<T>(
        _ p: Promise<T>, _ step: Int, _ op: String, _ args: [String], _ source: Int,
        wrap: (Promise<T>) -> PKNode, wrapG: (Guarantee<T>) -> PKNode
    ) -> PKNode {
        let n = nodes.count
        let on = queue(args[1])
        let b = args.count > 2 ? args[2] : ""
        @Sendable func throwing() throws { if b.hasPrefix("t:") { throw error(b.dropFirst(2)) } }
        let onFulfilled: ((fulfilled: Bool, cancelled: Bool)) -> Bool = { $0.fulfilled }
        let always: ((fulfilled: Bool, cancelled: Bool)) -> Bool = { _ in true }
        func policyDue(_ policy: String) -> ((fulfilled: Bool, cancelled: Bool)) -> Bool {
            { !$0.fulfilled && (policy == "all" || !$0.cancelled) }
        }
        func policy(_ text: String) -> CatchPolicy { text == "all" ? .allErrors : .allErrorsExceptCancellation }
        var due = onFulfilled
        var node: PKNode
        switch op {
        case "then":
            node = .p(
                p.then(on: on) { value -> Promise<Int> in
                    self.ran(step, describe(value))
                    return try self.promise(b, step: step, as: Int.self)
                })
        case "map":
            node = .p(
                p.map(on: on) { value -> Int in
                    self.ran(step, describe(value))
                    try throwing()
                    return Int(b.dropFirst())!
                })
        case "compactMap":
            node = .p(
                p.compactMap(on: on) { value -> Int? in
                    self.ran(step, describe(value))
                    try throwing()
                    return b == "nil" ? nil : Int(b.dropFirst())!
                })
        case "done":
            node = .pv(
                p.done(on: on) { value in
                    self.ran(step, describe(value))
                    try throwing()
                })
        case "get":
            node = wrap(
                p.get(on: on) { value in
                    self.ran(step, describe(value))
                    try throwing()
                })
        case "tap":
            due = always
            node = wrap(
                p.tap(on: on) { result in
                    switch result {
                    case .fulfilled(let value): self.ran(step, "f:" + describe(value))
                    case .rejected(let error): self.ran(step, "r:" + describe(error))
                    }
                })
        case "recover":
            due = policyDue(b)
            node = wrap(
                p.recover(on: on, policy: policy(b)) { error -> Promise<T> in
                    self.ran(step, describe(error))
                    return try self.promise(args[3], step: step, as: T.self)
                })
        case "recoverG":
            due = policyDue("all")
            node = wrapG(
                p.recover(on: on) { error -> Guarantee<T> in
                    self.ran(step, describe(error))
                    return self.guarantee(b, step: step, as: T.self)
                })
        case "catch":
            due = policyDue(b)
            catchSources[n] = source
            node = .finalizer(
                p.catch(on: on, policy: policy(b)) { error in
                    self.ran(step, describe(error))
                })
            expect(step, on: source, due: due)
            return node
        case "ensure":
            due = always
            node = wrap(p.ensure(on: on) { self.ran(step, "") })
        case "ensureThen":
            due = always
            node = wrap(
                p.ensureThen(on: on) { () -> Guarantee<Void> in
                    self.ran(step, "")
                    return self.guarantee(b, step: step, as: Void.self)
                })
        default: fatalError("unknown step \(op)")
        }
        expect(step, on: source, due: due)
        expectSettled(n) { [unowned self] in nodes[source].isResolved && returnedSettled(step) }
        return node
    }

    /// A node derived from a guarantee by its own `map`, `done`, `get` or `then`.
    func deriveG<T>(
        _ g: Guarantee<T>, _ step: Int, _ op: String, _ args: [String], _ source: Int,
        wrap: (Guarantee<T>) -> PKNode
    ) -> PKNode {
        let n = nodes.count
        let on = queue(args[1])
        let node: PKNode
        switch op {
        case "gmap":
            let k = Int(args[2])!
            node = .g(
                g.map(on: on) { value -> Int in
                    self.ran(step, describe(value))
                    return k
                })
        case "gdone": node = .gv(g.done(on: on) { value in self.ran(step, describe(value)) })
        case "gget": node = wrap(g.get(on: on) { value in self.ran(step, describe(value)) })
        case "gthen":
            node = .g(
                g.then(on: on) { value -> Guarantee<Int> in
                    self.ran(step, describe(value))
                    return self.guarantee(args[2], step: step, as: Int.self)
                })
        default: fatalError("unknown step \(op)")
        }
        expect(step, on: source) { _ in true }
        expectSettled(n) { [unowned self] in nodes[source].isResolved && returnedSettled(step) }
        return node
    }
}
