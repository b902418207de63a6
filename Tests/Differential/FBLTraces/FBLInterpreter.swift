// FBLInterpreter.swift: runs an FBLProgram through Google Promises' Swift API and records its trace.
//
// Written against the names of Google's Swift API (`Promise<Value>`, `then(on:)`, `all(on:)`…), as FBLStyle provides
// them. The golden traces are recorded outside this repository by an Objective-C twin of this file that makes the
// same calls on FBLPromise, Google's Objective-C core, that Google's Swift API makes (docs/differential-traces.md).

import DifferentialCore
import Foundation

#if canImport(Promises)
    import Promises
#else
    import FBLStyle
#endif

/// The Google Promises interpreter of the differential traces.
public enum FBLInterpreter: TraceInterpreter {
    /// The original the golden traces were recorded on.
    public static let original = "Google Promises 2.4.1"
    /// The golden file of this original.
    public static let goldenFileName = "Promises-2.4.1.jsonl"
    /// The original, as its golden file's header names it.
    public static let originalLibrary = TracedLibrary(
        name: "Promises", version: "2.4.1", repository: "https://github.com/google/promises", isOriginal: true)
    #if canImport(Promises)
        /// The library this source was compiled against: the original, in the recording package.
        public static let compiledAgainst = originalLibrary
    #else
        /// The library this source was compiled against: our style.
        public static let compiledAgainst = TracedLibrary.style("FBLStyle")
    #endif

    /// The generated program of `seed` (FBLProgram).
    public static func program(seed: UInt64) -> String { FBLProgram.generate(seed: seed) }

    /// The kind of each step of `program`.
    public static func stepKinds(_ program: String) -> [String] { FBLProgram.kinds(program) }

    /// Runs `program` on the calling thread, the driver. The program's queue `m` stands for the default queue: the
    /// interpreter passes it as `on:` where the program names `m` (the Objective-C twin that records the golden traces
    /// sets Google's default queue to it instead, which every call then reads: the same queue reaches the same
    /// calls). `DispatchQueue.promises` itself is left alone, so other promise code may run meanwhile.
    public static func run(_ program: String) -> ProgramTrace {
        let run = FBLRun()
        defer { run.tearDown() }
        return run.run(program)
    }
}

/// A plain error of a program: `E3`.
struct ProgramError: Error {
    let id: Int
}

/// One of the program's promises, with the type it has.
enum FBLNode {
    case i(Promise<Int>)
    case a(Promise<[Int]>)
    case y(Promise<[Maybe<Int>]>)

    /// How the node stands: `p` (pending), `f:VALUE` or `r:ERROR`.
    var state: String {
        func text<T>(_ promise: Promise<T>) -> String {
            if promise.isPending { return "p" }
            if let error = promise.error { return "r:\(describe(error))" }
            return promise.value.map { "f:\(describe($0))" } ?? "f:nil"
        }
        switch self {
        case .i(let p): return text(p)
        case .a(let p): return text(p)
        case .y(let p): return text(p)
        }
    }

    /// Nil while pending; otherwise whether it fulfilled.
    var fulfilled: Bool? {
        func outcome<T>(_ promise: Promise<T>) -> Bool? {
            promise.isPending ? nil : promise.isFulfilled
        }
        switch self {
        case .i(let p): return outcome(p)
        case .a(let p): return outcome(p)
        case .y(let p): return outcome(p)
        }
    }

    /// Whether the node has settled.
    var isResolved: Bool { fulfilled != nil }
}

/// A value or error as the trace shows it: `7`, `[1,2]`, `[3,E1]`, `E2`, `V` (a failed validation).
func describe(_ value: Any) -> String {
    switch value {
    case let value as Int: return "\(value)"
    case let values as [Int]: return "[" + values.map(String.init).joined(separator: ",") + "]"
    case let values as [Maybe<Int>]:
        return "["
            + values.map { maybe in
                if let value = maybe.value { return "\(value)" }
                return maybe.error.map(describe) ?? "?"
            }.joined(separator: ",") + "]"
    case let error as ProgramError: return "E\(error.id)"
    case let error as PromiseError: return error == .validationFailure ? "V" : "T"
    default: return "?\(type(of: value))"
    }
}

/// One run of one program: the driver's state.
final class FBLRun: @unchecked Sendable {
    /// The program's trace and what its handlers did.
    let ledger = HandlerLedger()
    var log: TraceLog { ledger.log }
    // Made in this order, which is the order `drainQueues` runs them in (the Objective-C twin makes them alike).
    lazy var m = log.makeQueue("m")
    lazy var q1 = log.makeQueue("q1")
    lazy var q2 = log.makeQueue("q2")
    var nodes: [FBLNode] = []

    init() {
        _ = (m, q1, q2)
    }

    func run(_ program: String) -> ProgramTrace {
        ProgramText.run(
            program, log: log, perform: perform, isQuiet: { ledger.expectationsHold },
            final: { nodes.map(\.state) })
    }

    /// Lets what is left on the queues run (`TraceLog.finish`), then lets go of the promises: a pending promise keeps its observers, which keep this run. (A pending promise also
    /// keeps the process-wide group busy until it is gone, and `waitForPromises` waits for that group.)
    func tearDown() {
        log.finish()
        ledger.forgetExpectations()
        nodes = []
    }

    // MARK: Handlers

    /// Records that handler `step` ran with `input`.
    func ran(_ step: Int, _ input: String) { ledger.ran(step, input) }

    /// Whether the promise handler `step` returned (if it returned a pending node of the program) has settled.
    func returnedSettled(_ step: Int) -> Bool { ledger.returnedNode(step).map { nodes[$0].isResolved } ?? true }

    /// The queue a program names: q1, q2, or m, which stands for the default queue.
    func queue(_ name: String) -> DispatchQueue {
        name == "q1" ? q1 : name == "q2" ? q2 : m
    }

    func error(_ text: Substring) -> Error { ProgramError(id: Int(text.dropFirst())!) }

    /// The promise a promise-returning handler of `step` gives, by the program's `r`: pvK, pe:E or nK.
    func promise(_ r: String, step: Int) -> Promise<Int> {
        if r.hasPrefix("pe:") { return Promise<Int>(error(r.dropFirst(3))) }
        if r.hasPrefix("pv") { return Promise(Int(r.dropFirst(2))!) }
        let n = Int(r.dropFirst())!
        guard case .i(let pending) = nodes[n] else { fatalError("not a Promise<Int>: \(r)") }
        ledger.returning(step, n)
        return pending
    }

    /// The value a value-returning handler gives, by the program's `r`: vK, or t:E (it throws).
    func value(_ r: String) throws -> Int {
        if r.hasPrefix("t:") { throw error(r.dropFirst(2)) }
        return Int(r.dropFirst())!
    }

    /// The expectation of a handler of `step` on `source`: once the source settles, it runs if `due` says so.
    func expect(_ step: Int, on source: Int, due: @escaping (_ fulfilled: Bool) -> Bool) {
        ledger.expectRun(step) { [unowned self] in nodes[source].fulfilled.map(due) ?? false }
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
        case "pending": nodes.append(.i(Promise<Int>.pending()))
        case "value": nodes.append(.i(Promise(Int(args[0])!)))
        case "error": nodes.append(.i(Promise<Int>(error(Substring(args[0])))))
        case "fulfill":
            guard case .i(let p) = nodes[Int(args[0].dropFirst())!] else { fatalError("not pending: \(args[0])") }
            p.fulfill(Int(args[1])!)
        case "reject":
            guard case .i(let p) = nodes[Int(args[0].dropFirst())!] else { fatalError("not pending: \(args[0])") }
            p.reject(error(Substring(args[1])))
        case "all", "race", "any": nodes.append(combine(op, args))
        default:
            let source = Int(args[0].dropFirst())!
            let node: FBLNode
            switch nodes[source] {
            case .i(let p): node = derive(p, step, op, args, source, wrap: FBLNode.i)
            case .a(let p): node = derive(p, step, op, args, source, wrap: FBLNode.a)
            case .y(let p): node = derive(p, step, op, args, source, wrap: FBLNode.y)
            }
            nodes.append(node)
        }
    }

    /// A node that combines Promise<Int> nodes: `all`, `race` or `any`.
    func combine(_ op: String, _ args: [String]) -> FBLNode {
        let n = nodes.count
        let on = queue(args[0])
        let inputs = args.dropFirst().map { Int($0.dropFirst())! }
        let promises = inputs.map { input -> Promise<Int> in
            guard case .i(let p) = nodes[input] else { fatalError("not a Promise<Int>: n\(input)") }
            return p
        }
        switch op {
        case "all":
            expectSettled(n) { [unowned self] in
                let outcomes = inputs.map { nodes[$0].fulfilled }
                return outcomes.contains(false) || outcomes.allSatisfy { $0 != nil }
            }
            return .a(all(on: on, promises))
        case "race":
            expectSettled(n) { [unowned self] in inputs.contains { nodes[$0].isResolved } }
            return .i(race(on: on, promises))
        default:
            expectSettled(n) { [unowned self] in inputs.allSatisfy { nodes[$0].isResolved } }
            return .y(any(on: on, promises))
        }
    }

    /// A node derived from a promise: `then`, `catch`, `recover`, `always` or `validate`.
    func derive<T>(
        _ p: Promise<T>, _ step: Int, _ op: String, _ args: [String], _ source: Int, wrap: (Promise<T>) -> FBLNode
    ) -> FBLNode {
        let n = nodes.count
        let on = queue(args[1])
        let r = args.count > 2 ? args[2] : ""
        var due: (Bool) -> Bool = { $0 }
        let node: FBLNode
        switch op {
        case "then" where r == "ok":
            node = wrap(p.then(on: on) { (value: T) -> Void in self.ran(step, describe(value)) })
        case "then" where r.hasPrefix("v") || r.hasPrefix("t:"):
            node = .i(
                p.then(on: on) { value -> Int in
                    self.ran(step, describe(value))
                    return try self.value(r)
                })
        case "then":
            node = .i(
                p.then(on: on) { value -> Promise<Int> in
                    self.ran(step, describe(value))
                    return self.promise(r, step: step)
                })
        case "catch":
            due = { !$0 }
            node = wrap(p.catch(on: on) { error in self.ran(step, describe(error)) })
        case "recover":
            due = { !$0 }
            guard let p = p as? Promise<Int> else { fatalError("recover on a node that is no Promise<Int>") }
            if r.hasPrefix("v") || r.hasPrefix("t:") {
                node = .i(
                    p.recover(on: on) { error -> Int in
                        self.ran(step, describe(error))
                        return try self.value(r)
                    })
            } else {
                node = .i(
                    p.recover(on: on) { error -> Promise<Int> in
                        self.ran(step, describe(error))
                        return self.promise(r, step: step)
                    })
            }
        case "always":
            due = { _ in true }
            node = wrap(p.always(on: on) { self.ran(step, "") })
        case "validate":
            node = wrap(
                p.validate(on: on) { value in
                    self.ran(step, describe(value))
                    return r == "ok"
                })
        default: fatalError("unknown step \(op)")
        }
        expect(step, on: source, due: due)
        expectSettled(n) { [unowned self] in nodes[source].isResolved && returnedSettled(step) }
        return node
    }
}
