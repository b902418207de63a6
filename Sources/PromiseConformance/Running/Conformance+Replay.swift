// Conformance+Replay.swift: one generated program, as a failure's report prints it, run again on an adapter.
import Dispatch

extension Conformance {
    /// Runs one generated program (the text a failure's report prints after `smallest program`) once on the
    /// implementation behind `adapter`, in this process, and says which rules it broke.
    ///
    /// A report's replay line gives the call with the program filled in:
    ///
    /// ```swift
    /// print(try Conformance.replay("p0 = pending; p1 = then p0 - ( -> v1 ) _; fulfil p0 v2", on: MyAdapter()))
    /// ```
    ///
    /// - Parameters:
    ///   - program: the program's text.
    ///   - adapter: the implementation to run it on.
    ///   - timeout: the most time the run may take.
    /// - Throws: ``Program/ParseError`` when `program` is not a program.
    public static func replay<A: PromiseAdapter>(
        _ program: String, on adapter: A, timeout: Duration = .seconds(60)
    ) throws -> ProgramVerdict {
        verdict(of: try Program(parsing: program), on: adapter, timeout: timeout)
    }

    /// ``replay(_:on:timeout:)`` of a program already parsed.
    static func verdict<A: PromiseAdapter>(
        of program: Program, on adapter: A, timeout: Duration = .seconds(60)
    ) -> ProgramVerdict {
        let judgement = ProgramTrial.judge(
            program, on: ErasedAdapter(adapter), deadline: .now() + timeout.dispatchInterval)
        return ProgramVerdict(
            program: program, adapterName: adapter.name, undeclared: judgement.undeclared,
            declared: judgement.declared)
    }
}
