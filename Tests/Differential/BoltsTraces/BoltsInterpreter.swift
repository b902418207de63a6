// BoltsInterpreter.swift: runs a BoltsProgram through Bolts-Swift's API and records its trace.
//
// Written against BoltsStyle's names (BFTask, BFTaskCompletionSource, BFExecutor…), using only API that Bolts-Swift
// 1.5.0 has too: the recording package compiles this file against Bolts-Swift, with a file of typealiases that maps
// each BF name to Bolts-Swift's (`typealias BFTask = BoltsSwift.Task`), and this repository against BoltsStyle
// (docs/differential-traces.md).

import DifferentialCore
import Foundation

#if !canImport(BoltsSwift)
    import BoltsStyle
#endif

/// The Bolts interpreter of the differential traces.
public enum BoltsInterpreter: TraceInterpreter {
    /// The original the golden traces were recorded on.
    public static let original = "Bolts-Swift 1.5.0"
    /// The golden file of this original.
    public static let goldenFileName = "Bolts-Swift-1.5.0.jsonl"
    /// The original, as its golden file's header names it.
    public static let originalLibrary = TracedLibrary(
        name: "BoltsSwift", version: "1.5.0", repository: "https://github.com/BoltsFramework/Bolts-Swift",
        isOriginal: true)
    #if canImport(BoltsSwift)
        /// The library this source was compiled against: the original, in the recording package.
        public static let compiledAgainst = originalLibrary
    #else
        /// The library this source was compiled against: our style.
        public static let compiledAgainst = TracedLibrary.style("BoltsStyle")
    #endif

    /// The generated program of `seed` (BoltsProgram).
    public static func program(seed: UInt64) -> String { BoltsProgram.generate(seed: seed) }

    /// The kind of each step of `program`.
    public static func stepKinds(_ program: String) -> [String] { BoltsProgram.kinds(program) }

    /// Runs `program` on the calling thread (the driver), with the program's serial queues `q1` and `q2`.
    public static func run(_ program: String) -> ProgramTrace {
        let run = BoltsRun()
        defer { run.tearDown() }
        return run.run(program)
    }
}

/// A plain error of a program: `E3`.
struct ProgramError: Error {
    let id: Int
}

/// How a completed task ended, as the expectations need it.
enum BoltsOutcome {
    case success
    case error(programError: Bool)
    case cancelled
}

/// One of the program's tasks, with the type it has.
enum BoltsNode {
    case i(BFTask<Int>)
    case v(BFTask<Void>)
    case a(BFTask<[Int]>)

    /// How the task stands: `p` (pending), `f:VALUE`, `r:ERROR` or `x` (cancelled).
    var state: String {
        switch self {
        case .i(let task): return describeState(task)
        case .v(let task): return describeState(task)
        case .a(let task): return describeState(task)
        }
    }

    /// Nil while pending; otherwise how it ended.
    var outcome: BoltsOutcome? {
        switch self {
        case .i(let task): return outcomeOf(task)
        case .v(let task): return outcomeOf(task)
        case .a(let task): return outcomeOf(task)
        }
    }

    var isCompleted: Bool { outcome != nil }
}

/// How a task stands: `p`, `f:VALUE`, `r:ERROR` or `x`.
func describeState<T>(_ task: BFTask<T>) -> String {
    guard task.completed else { return "p" }  // a completed task's state no longer changes
    if task.cancelled { return "x" }
    if let error = task.error { return "r:" + describe(error) }
    if let value = task.result { return "f:" + describe(value) }
    return "?"
}

/// How a task ended, or nil while it is pending.
func outcomeOf<T>(_ task: BFTask<T>) -> BoltsOutcome? {
    guard task.completed else { return nil }
    if task.cancelled { return .cancelled }
    if let error = task.error { return .error(programError: error is ProgramError) }
    return .success
}

/// How a value or error reads in a trace.
func describe(_ value: Any) -> String {
    switch value {
    case let int as Int: return "\(int)"
    case is Void: return "()"
    case let ints as [Int]: return "[" + ints.map(String.init).joined(separator: ",") + "]"
    case let error as ProgramError: return "E\(error.id)"
    case is BFCancelledError: return "X"
    case let error as BFAggregateError: return "agg[" + error.errors.map(describe).joined(separator: ",") + "]"
    default: return "?\(type(of: value))"
    }
}

/// One run of one program: the driver's state.
final class BoltsRun: @unchecked Sendable {
    /// The program's trace and what its handlers did.
    let ledger = HandlerLedger()
    var log: TraceLog { ledger.log }
    lazy var q1 = log.makeQueue("q1")
    lazy var q2 = log.makeQueue("q2")
    var nodes: [BoltsNode] = []
    var sources: [Int: BFTaskCompletionSource<Int>] = [:]

    func run(_ program: String) -> ProgramTrace {
        ProgramText.run(
            program, log: log, perform: perform, isQuiet: { ledger.expectationsHold },
            final: { nodes.map(\.state) })
    }

    /// Lets what is left on the queues run (`TraceLog.finish`), then lets go of the tasks: a pending task keeps its continuations, which keep this run.
    func tearDown() {
        log.finish()
        ledger.forgetExpectations()
        sources = [:]
        nodes = []
    }

    // MARK: Handlers

    /// Records that handler `step` ran with `input`.
    func ran(_ step: Int, _ input: String) { ledger.ran(step, input) }

    /// Whether the task handler `step` returned (if it returned a pending node of the program) has completed.
    func returnedCompleted(_ step: Int) -> Bool { ledger.returnedNode(step).map { nodes[$0].isCompleted } ?? true }

    func executor(_ name: String) -> BFExecutor {
        switch name {
        case "d": return .default
        case "i": return .immediate
        case "q1": return .queue(q1)
        case "q2": return .queue(q2)
        case "c": return .closure { $0() }
        case "e":
            let q2 = self.q2
            return .escapingClosure { block in
                // Run once, on q2 (`@Sendable` under CheckedHandlers).
                nonisolated(unsafe) let block: () -> Void = block
                q2.async { block() }
            }
        default: fatalError("unknown executor \(name)")
        }
    }

    func error(_ text: Substring) -> Error {
        text == "X" ? BFCancelledError() : ProgramError(id: Int(text.dropFirst())!)
    }

    /// `k` as a value of the type `T` a node holds (Int, Void or [Int]).
    func value<T>(_ k: Int, as _: T.Type) -> T {
        if T.self == Void.self { return () as! T }
        if T.self == [Int].self { return [k] as! T }
        return k as! T
    }

    /// What a value-returning handler gives, by the program's `b`.
    func produce<T>(_ b: String, as _: T.Type) throws -> T {
        if b.hasPrefix("t:") { throw error(b.dropFirst(2)) }
        return value(Int(b.dropFirst())!, as: T.self)
    }

    /// What a task-returning handler of `step` gives, by the program's `r`.
    func task<T>(_ r: String, step: Int, as _: T.Type) throws -> BFTask<T> {
        if r.hasPrefix("t:") { throw error(r.dropFirst(2)) }
        if r.hasPrefix("e:") { return BFTask<T>(error: error(r.dropFirst(2))) }
        if r == "x" { return BFTask<T>.cancelledTask() }
        if r.hasPrefix("n"), case .i(let pending) = nodes[Int(r.dropFirst())!] {
            ledger.returning(step, Int(r.dropFirst())!)
            return pending as! BFTask<T>
        }
        return BFTask<T>(value(Int(r.dropFirst())!, as: T.self))
    }

    /// The expectation of a handler of `step` on `source`: once the source completes, it runs if `due` says so.
    func expect(_ step: Int, on source: Int, due: @escaping (BoltsOutcome) -> Bool) {
        ledger.expectRun(step) { [unowned self] in nodes[source].outcome.map(due) ?? false }
    }

    /// The expectation of a new node made at `step`: once `due` holds it completes.
    func expectCompleted(_ node: Int, due: @escaping () -> Bool) {
        ledger.expect({ [unowned self] in nodes[node].isCompleted }, when: due)
    }

    // MARK: Steps

    func perform(_ step: Int, _ words: [String]) {
        let op = String(words[0].split(separator: "=").last!)  // `n3=with` makes node n3, the next one
        let args = Array(words.dropFirst())
        func source() -> BFTaskCompletionSource<Int> { sources[Int(args[0].dropFirst())!]! }
        switch op {
        case "tcs":
            let source = BFTaskCompletionSource<Int>()
            sources[nodes.count] = source
            nodes.append(.i(source.task))
        case "value", "error", "cancelled", "exec", "execTask", "init", "whenAll", "whenAllR", "whenAny":
            nodes.append(make(step, op, args))
        case "set": source().set(result: Int(args[1])!)
        case "fail": source().set(error: error(Substring(args[1])))
        case "cancel": source().cancel()
        case "tryset": log.record("t\(step)(\(source().trySet(result: Int(args[1])!)))")
        case "tryfail": log.record("t\(step)(\(source().trySet(error: error(Substring(args[1])))))")
        case "trycancel": log.record("t\(step)(\(source().tryCancel()))")
        default:
            let source = Int(args[0].dropFirst())!
            let node: BoltsNode
            switch nodes[source] {
            case .i(let task): node = derive(task, step, op, args, source, wrap: BoltsNode.i)
            case .v(let task): node = derive(task, step, op, args, source, wrap: BoltsNode.v)
            case .a(let task): node = derive(task, step, op, args, source, wrap: BoltsNode.a)
            }
            nodes.append(node)
        }
    }

    /// A node that needs no source: a completed task, a task made by `execute`, and the combinators.
    func make(_ step: Int, _ op: String, _ args: [String]) -> BoltsNode {
        let n = nodes.count
        switch op {
        case "value": return .i(BFTask<Int>(Int(args[0])!))
        case "error": return .i(BFTask<Int>(error: error(Substring(args[0]))))
        case "cancelled": return .i(BFTask<Int>.cancelledTask())
        case "exec", "init":
            let x = executor(args[0])
            let b = args[1]
            let closure = { @Sendable () throws -> Int in
                self.ran(step, "")
                return try self.produce(b, as: Int.self)
            }
            ledger.expectRun(step) { true }
            expectCompleted(n) { true }
            return .i(op == "exec" ? BFTask<Int>.execute(x, closure: closure) : BFTask<Int>(x, closure: closure))
        case "execTask":
            let r = args[1]
            let task = BFTask<Int>.executeWithTask(executor(args[0])) { () throws -> BFTask<Int> in
                self.ran(step, "")
                return try self.task(r, step: step, as: Int.self)
            }
            ledger.expectRun(step) { true }
            expectCompleted(n) { [unowned self] in returnedCompleted(step) }
            return .i(task)
        default:
            let inputs = args.map { Int($0.dropFirst())! }
            let tasks = inputs.map { input -> BFTask<Int> in
                guard case .i(let task) = nodes[input] else { fatalError("not a BFTask<Int>: n\(input)") }
                return task
            }
            switch op {
            case "whenAll":
                expectCompleted(n) { [unowned self] in inputs.allSatisfy { nodes[$0].isCompleted } }
                return .v(BFTask<Int>.whenAll(tasks))
            case "whenAllR":
                expectCompleted(n) { [unowned self] in inputs.allSatisfy { nodes[$0].isCompleted } }
                return .a(BFTask<Int>.whenAllResult(tasks))
            default:
                expectCompleted(n) { [unowned self] in inputs.contains { nodes[$0].isCompleted } }
                return .v(BFTask<Int>.whenAny(tasks))
            }
        }
    }

    /// A node derived from a task by one of the `continue…` methods.
    func derive<T>(
        _ t: BFTask<T>, _ step: Int, _ op: String, _ args: [String], _ source: Int, wrap: (BFTask<T>) -> BoltsNode
    ) -> BoltsNode {
        let n = nodes.count
        let x = executor(args[1])
        let b = args[2]
        let always: (BoltsOutcome) -> Bool = { _ in true }
        let onSuccess: (BoltsOutcome) -> Bool = {
            if case .success = $0 { return true }
            return false
        }
        let onError: (BoltsOutcome) -> Bool = {
            if case .error = $0 { return true }
            return false
        }
        let onProgramError: (BoltsOutcome) -> Bool = {
            if case .error(programError: true) = $0 { return true }
            return false
        }
        var due = always
        let node: BoltsNode
        switch op {
        case "with":
            node = .i(
                t.continueWith(x) { task -> Int in
                    self.ran(step, describeState(task))
                    return try self.produce(b, as: Int.self)
                })
        case "withTask":
            node = .i(
                t.continueWithTask(x) { task -> BFTask<Int> in
                    self.ran(step, describeState(task))
                    return try self.task(b, step: step, as: Int.self)
                })
        case "succ":
            due = onSuccess
            node = .i(
                t.continueOnSuccessWith(x) { value -> Int in
                    self.ran(step, describe(value))
                    return try self.produce(b, as: Int.self)
                })
        case "succTask":
            due = onSuccess
            node = .i(
                t.continueOnSuccessWithTask(x) { value -> BFTask<Int> in
                    self.ran(step, describe(value))
                    return try self.task(b, step: step, as: Int.self)
                })
        case "err":
            due = onError
            node = wrap(
                t.continueOnErrorWith(x) { (error: Error) -> T in
                    self.ran(step, describe(error))
                    return try self.produce(b, as: T.self)
                })
        case "errTask":
            due = onError
            node = wrap(
                t.continueOnErrorWithTask(x) { (error: Error) -> BFTask<T> in
                    self.ran(step, describe(error))
                    return try self.task(b, step: step, as: T.self)
                })
        case "errT":
            due = onProgramError
            node = wrap(
                t.continueOnErrorWith(x) { (error: ProgramError) -> T in
                    self.ran(step, describe(error))
                    return try self.produce(b, as: T.self)
                })
        case "errTaskT":
            due = onProgramError
            node = wrap(
                t.continueOnErrorWithTask(x) { (error: ProgramError) -> BFTask<T> in
                    self.ran(step, describe(error))
                    return try self.task(b, step: step, as: T.self)
                })
        default: fatalError("unknown step \(op)")
        }
        expect(step, on: source, due: due)
        expectCompleted(n) { [unowned self] in nodes[source].isCompleted && returnedCompleted(step) }
        return node
    }
}
