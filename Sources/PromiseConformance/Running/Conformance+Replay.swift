// Conformance+Replay.swift: one generated program, as a failure's report prints it, run again on an adapter.
import Dispatch
import Foundation

extension Conformance {
    /// Runs one generated program (the text a failure's report prints after `smallest program`) on the
    /// implementation behind `adapter`, in this process, and says which rules it broke.
    ///
    /// A rule broken is confirmed as the suite confirms it: when the first run breaks one the adapter does not
    /// declare, a second run decides, in which every wait for something the model requires may see nothing happen for
    /// a third of `timeout` (5 s at least) instead of 2 s. So a busy machine, whose queues can go 2 s without a turn,
    /// does not make a stall of a promise that does its work; a promise that never does it costs the replay that much
    /// longer.
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

    /// How long a wait of the replay's confirming run may see nothing happen, in seconds: a third of `timeout`, and
    /// at least the suite's own confirmation limit (5 s). One program has the whole `timeout` to itself, so its
    /// confirmation is not held to the 10 s a case of a generated clause gets.
    static func replayConfirmationStallLimit(timeout: Duration) -> TimeInterval {
        max(ProgramTrial.confirmationStallLimit, Double(timeout.dispatchInterval.nanoseconds) / 3e9)
    }

    /// ``replay(_:on:timeout:)`` of a program already parsed.
    static func verdict<A: PromiseAdapter>(
        of program: Program, on adapter: A, timeout: Duration = .seconds(60)
    ) -> ProgramVerdict {
        let erased = ErasedAdapter(adapter)
        let deadline = DispatchTime.now() + timeout.dispatchInterval
        var judgement = ProgramTrial.judge(program, on: erased, deadline: deadline)
        if !judgement.undeclared.isEmpty {
            judgement = ProgramTrial.judge(
                program, on: erased, stallLimit: replayConfirmationStallLimit(timeout: timeout), deadline: deadline)
        }
        return ProgramVerdict(
            program: program, adapterName: adapter.name, undeclared: judgement.undeclared,
            declared: judgement.declared)
    }
}
