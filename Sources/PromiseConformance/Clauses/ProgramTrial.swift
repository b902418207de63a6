// ProgramTrial.swift: one program on an adapter: the model's prediction, the driver's run (ProgramRun.swift,
// RunLog.swift) and the comparison of the two (ModelComparison.swift); a failure shrunk and reported.
import Dispatch
import Foundation

/// Runs programs on an adapter and judges them.
enum ProgramTrial {
    /// What one run of a program showed: the departures from rules the adapter declares, and the others.
    struct Judgement: Sendable {
        var undeclared: [Violation]
        var declared: [Violation]
    }

    /// How long a wait may see nothing happen while the model still expects something, in seconds: long enough for
    /// any implementation that does its work, on a busy machine; only one that never does it waits this long.
    static let stallLimit: TimeInterval = 2

    /// The least stall limit of the run that confirms a failure before it is reported: a program fails only if it
    /// fails again with this much time for each wait (a third of the case's time limit, between this and
    /// ``longestConfirmationStallLimit``), which a busy machine, or a global queue whose threads other work holds, does
    /// not need for an implementation that does its work.
    static let confirmationStallLimit: TimeInterval = 5

    /// The most time the confirming run gives a wait.
    static let longestConfirmationStallLimit: TimeInterval = 10

    /// The confirming run's stall limit for a case with time limit `caseTimeout`.
    static func confirmationStallLimit(caseTimeout: DispatchTimeInterval) -> TimeInterval {
        min(max(confirmationStallLimit, Double(caseTimeout.nanoseconds) / 3e9), longestConfirmationStallLimit)
    }

    /// The stall limit while shrinking: a candidate that stalls is taken to fail, and the smallest program is run
    /// again with ``stallLimit`` before it is reported.
    static let shrinkStallLimit: TimeInterval = 0.1

    /// How long a generated clause shrinks a failure once the run has stalled (``RunStalls``).
    static let stalledShrinkLimit: TimeInterval = 1

    /// Whether `rule` is one the adapter declares a departure from: a key of its deviations names the rule's clause
    /// or one of its cases (`2.2.4`, `2.2.4#…`), or says `generated#` and the rule (`generated#2.2.6.1`).
    static func isDeclared(_ rule: String, in deviations: [String: String]) -> Bool {
        deviations.keys.contains { key in
            let (id, caseName) = Deviation.split(key)
            return id == rule || (id == Deviation.generated && caseName == rule)
        }
    }

    /// Runs `program` once on `adapter` and judges it.
    static func judge(
        _ program: Program, on adapter: ErasedAdapter, stallLimit: TimeInterval = stallLimit, deadline: DispatchTime
    ) -> Judgement {
        let declared = { (rule: String) in isDeclared(rule, in: adapter.deviations) }
        let prediction = PromisesAPlus.predict(program, declared: declared)
        // An implementation that declares leaks (swift.release) is not given time to free what it keeps.
        let releaseLimit = declared("swift.release") ? min(stallLimit, 0.05) : stallLimit
        let log = ProgramRun(program, on: adapter).run(
            prediction, stallLimit: stallLimit, releaseLimit: releaseLimit, deadline: deadline)
        let violations = ModelComparison.violations(
            program, log, orderUnqueued: adapter.concurrentDefaultScheduling == nil)
        return Judgement(
            undeclared: violations.filter { !declared($0.rule) }, declared: violations.filter { declared($0.rule) })
    }

    /// Runs program `index` of `family` as a case of a generated clause: returns if the adapter did what the model
    /// requires; throws ``DeclaredDeparture`` if it broke only rules it declares; otherwise shrinks the program and
    /// throws the failure, with the seed, the smallest program, what the model requires, what the promise did and the
    /// rule broken.
    ///
    /// Only the clause's first failure is shrunk and printed: once one program failed (`afterFailure`), the others
    /// are counted, one line each naming the rule and the program, and run with the short stall limit of the shrinker,
    /// so that an implementation that fails most programs does not spend the clause's time on each.
    static func check(
        _ program: Program, index: Int, programs: GeneratedPrograms, afterFailure: Bool, in context: ClauseContext
    ) throws {
        let clock = context.clock
        // Once the run has stalled (RunStalls), every wait is short and a failure's confirmation too: the run fails
        // already, and its verdict is not to wait on each program.
        let stall = context.cases.stalls.firstStall
        let stalled = stall != nil
        let judgement = judge(
            program, on: context.adapter, stallLimit: afterFailure || stalled ? shrinkStallLimit : stallLimit,
            deadline: clock.deadline)
        var first = judgement.undeclared.first
        if first != nil, !afterFailure {
            // Confirmed by a second run that gives every wait more time, or not a failure: see confirmationStallLimit.
            let confirmation = stalled ? shrinkStallLimit : confirmationStallLimit(caseTimeout: clock.caseTimeout)
            first =
                judge(program, on: context.adapter, stallLimit: confirmation, deadline: clock.deadline)
                .undeclared.first
        }
        guard let first else {
            guard let departure = judgement.declared.first else { return }
            throw DeclaredDeparture(message: "broke \(departure.rule) as declared: \(departure)")
        }
        guard !afterFailure else {
            // The clause's first failure is shrunk and printed; the others are counted, each on one line.
            throw context.failure(
                "broke \(first.rule) too (program \(index) of seed \(programs.seed), \(program.size) steps, not shrunk)"
            )
        }
        // Shrink while at least a third of the case's time is left.
        let caseNanoseconds = clock.caseTimeout.nanoseconds
        let stopAt =
            stalled
            ? min(
                clock.deadline.uptimeNanoseconds,
                DispatchTime.now().uptimeNanoseconds + UInt64(stalledShrinkLimit * 1e9))
            : clock.deadline.uptimeNanoseconds - caseNanoseconds / 3
        let hasTime = { DispatchTime.now().uptimeNanoseconds < stopAt }
        // A candidate counts as failing when it fails three times in a row: a departure that shows only in some runs
        // (one that depends on how two queues' handlers interleave) does not lead the search astray.
        func breaks(_ candidate: Program, stallLimit: TimeInterval) -> Violation? {
            judge(candidate, on: context.adapter, stallLimit: stallLimit, deadline: clock.deadline)
                .undeclared.first { $0.rule == first.rule }
        }
        let fails = { (candidate: Program) in
            (0..<3).allSatisfy { _ in breaks(candidate, stallLimit: shrinkStallLimit) != nil }
        }
        var smallest = ProgramShrinker.shrink(program, fails: fails, hasTime: hasTime).renumbered
        var violation: Violation?
        for _ in 0..<3 where violation == nil {
            violation = breaks(smallest, stallLimit: stalled ? shrinkStallLimit : stallLimit)
        }
        if violation == nil {  // the shrunk program passed with the full stall limit: report the generated one
            smallest = program
            violation = first
        }
        var message = report(
            program: smallest, from: program, violation: violation!, index: index, programs: programs,
            replay: context.replay)
        if let stall {
            message +=
                "\n"
                + wrapped("judged with waits of \(shrinkStallLimit) s: the run had stalled before: \(stall)")
                .joined(separator: "\n")
        }
        throw context.failure(message)
    }

    /// The width a report's prose is wrapped to; the program and the replay line are never wrapped, so that they can
    /// be copied whole.
    static let reportWidth = 100

    /// A failure as the report gives it: the rule, the smallest program and the replay line first, each on a line of
    /// its own, then what the model requires and what the promise did, wrapped to ``reportWidth``.
    static func report(
        program: Program, from generated: Program, violation: Violation, index: Int, programs: GeneratedPrograms,
        replay: ProgramReplay
    ) -> String {
        let title = Clause.named(violation.rule).map { " (\($0.title))" } ?? ""
        let shrunk = program == generated ? "" : ", shrunk from \(generated.size)"
        let head = [
            "broke \(violation.rule)\(title) in program \(index) of seed \(programs.seed)",
            "  smallest program (\(program.size) steps\(shrunk)): \(program)",
            "  " + replay.line(program),
        ]
        let prose = wrapped("the model requires: \(violation.required)") + wrapped("the promise did: \(violation.did)")
        return (head + prose).joined(separator: "\n")
    }

    /// `text` in lines of at most ``reportWidth`` characters, indented two spaces, the lines after the first four.
    static func wrapped(_ text: String) -> [String] {
        var lines: [String] = []
        var line = ""
        var indent: String { lines.isEmpty ? "  " : "    " }
        for word in text.split(separator: " ") {
            if !line.isEmpty, indent.count + line.count + 1 + word.count > reportWidth {
                lines.append(indent + line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(indent + line) }
        return lines
    }
}

extension DispatchTimeInterval {
    /// The interval in nanoseconds (`.never` as the largest).
    var nanoseconds: UInt64 {
        switch self {
        case .seconds(let value): UInt64(value) * 1_000_000_000
        case .milliseconds(let value): UInt64(value) * 1_000_000
        case .microseconds(let value): UInt64(value) * 1_000
        case .nanoseconds(let value): UInt64(value)
        default: .max / 2
        }
    }
}
