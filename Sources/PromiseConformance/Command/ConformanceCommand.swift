import Foundation

/// The command-line front end: runs the suite over some implementations and prints the matrix.
///
/// The package's `promise-conformance` executable is this, over the three built-in styles:
///
/// ```swift
/// let arguments = Array(CommandLine.arguments.dropFirst())
/// exit(await ConformanceCommand.run(adapters: [MyAdapter()], arguments: arguments))
/// ```
///
/// Options (see ``usage``): `--style NAME` (repeatable, or a comma list), `--clause PREFIX` (repeatable, or a comma
/// list), `--format text|markdown|json`, `--timeout SECONDS` (the time limit of each case), `--stress`, `--in-process`,
/// `--list` (the clauses with their cases), `--help`; for the generated clauses, `--programs N` and `--seed S` (the
/// programs each runs), `--program TEXT` (run one program, as a failure prints it, and say what each implementation
/// did against what the model requires) and `--coverage` (how often each kind of step occurs in the programs).
///
/// Each clause runs in a child process of its own: the command re-executes its own executable with a hidden
/// `--run-one CLAUSE --style NAME`, which runs that one clause, prints a line as each of its cases starts and ends, and
/// then its result. When a case crashes that process (a stack overflow, a trap, a double `resume`, a signal), the case
/// is reported as crashed, with the signal, and a new child process (`--skip-case NAME`, once per case already run)
/// runs the clause's other cases; the clauses after it run as usual. `--in-process` runs every clause in this process
/// instead: a little faster, but the first crash ends the run. The command must therefore be the program's whole work:
/// the executable, started again with those arguments, must reach `ConformanceCommand.run` with the same adapters.
///
/// The exit status is 0 when no clause failed, 1 when a clause failed that the style does not declare as a
/// deviation (or a declared deviation was not observed), and 2 for a usage error.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
public enum ConformanceCommand {
    /// The output formats of the matrix (``Matrix/Format``).
    public typealias Format = Matrix.Format

    /// The time limit of each case of a clause on the command line, shorter than ``Conformance/defaultTimeout`` so
    /// that a hanging case (a declared deviation like a task that waits for itself) costs seconds, not half a minute.
    /// Raise it with `--timeout` on a slow machine.
    public static let defaultTimeout: Duration = .seconds(10)

    /// The help text, as the package's `promise-conformance` shows it.
    public static let usage = usage(for: "promise-conformance")

    /// The name this process was started as (the last component of its path): a command built over other adapters
    /// names itself in its help text and its errors.
    public static var executableName: String {
        CommandLine.arguments.first.map { String($0.split(separator: "/").last ?? Substring($0)) }
            ?? "promise-conformance"
    }

    /// The help text of a command named `name`.
    public static func usage(for name: String) -> String {
        let indent = String(repeating: " ", count: name.count)
        return """
            usage: \(name) [--style NAME]... [--clause PREFIX]... [--format text|markdown|json]
                   \(indent) [--timeout SECONDS] [--stress] [--repeat N] [--in-process] [--list] [--help]
                   \(indent) [--programs N] [--seed S] [--program TEXT] [--coverage]

            Runs the Promises/A+-style conformance suite over promise implementations and prints the matrix:
            clauses as rows, implementations as columns, cells pass / FAIL / deviation / n/a.

              --style NAME      only this implementation (repeatable, or a comma-separated list; case-insensitive)
              --clause PREFIX   only clauses whose id starts with PREFIX, e.g. 2.2, 2.3.3, swift. (repeatable, or a list)
              --format FORMAT   text (default), markdown or json
              --timeout SECONDS the time limit of each case of a clause (default 10): a case that hangs is reported
                                "timed out" after it (and a 2 s margin), and the clause's other cases still run
              --stress          race for 2 s per race clause, not 0.25 s, and chains of 1,000,000 (PROMISES_STRESS=1)
              --repeat N        run each clause N times; a clause that fails in some runs says how often ("failed in 3
                                of 10 repetitions"); a clause the adapter declares a flaky departure runs 10 times at least
              --in-process      run every clause in this process; by default each clause runs in a child process, so
                                that a case that crashes (stack overflow, trap, signal) is reported with its signal and
                                the clause's other cases, and the clauses after it, still run
              --list            list the clauses, each with its cases as a deviation key names them (ID#CASE), and
                                exit
              --help            this text
              --programs N      how many programs each generated clause (generated.*) runs (default \(GeneratedPrograms.defaultCount))
              --seed S          the seed the generated programs are made from (default \(GeneratedPrograms.defaultSeed)); a
                                failure's report gives the seed and the program, so either replays it
              --program TEXT    run this one program (as a failure's report prints it) on each --style, and say what
                                the model requires and what each implementation did
              --coverage        print how often each kind of step occurs in the generated programs, and exit

            Reading the matrix: one row per clause, the 34 numbered requirements of Promises/A+ 1.1 section 2 by number,
            then the suite's own swift.* clauses; one column per implementation. Each clause runs several cases. A cell is
              pass       every case held
              FAIL       a case did not hold, timed out, or crashed the process running it (signal named), or a declared
                         deviation was not seen; "details:" below the table gives each such case and what was seen
              deviation  the implementation departs from the clause by design, as its adapter declares, and it was seen
              n/a        the adapter does not declare the capability the clause needs, or the requirement has no
                         meaning in typed Swift (listed with the reason below the table); never a pass
              (helper)   after a 2.3.3 cell: the verdict is about Assimilation.resolve, the suite's own procedure the
                         adapter uses, not about the library
            Below the table: one summary line per implementation, then the details of every FAIL and deviation.

            How long: the implementations run side by side, each clause in a child process; the three built-in styles
            take about 40-50 s in a debug build on 2 busy cores. Most clauses take milliseconds to a second (those that
            check that something does not happen wait a 30 ms grace period per check); swift.deepChain,
            swift.deepChain.settled (chains of every link kind, through each of the adapter's entry points, about 8 s
            per style) and swift.race take longest, 2.3.1 waits at most 3 s for a cycle to be rejected, and each case
            that hangs costs --timeout. The swift.deepChain.* clauses measure the stack a chain takes (chains of 250
            and 1,000 links, on a 256 MiB stack) and report a recursion per link as the overflow it would be, with the
            bytes per link, the same way in every run.

            Exit status: 0 when no clause failed, 1 when a clause failed that the implementation does not declare as a
            deviation, 2 for a usage error or a deviation naming an unknown clause or case.
            """
    }

    /// Parses `arguments` (without the program name), runs the suite over the selected `adapters` side by side,
    /// prints the matrix to standard output, and returns the exit status.
    ///
    /// - Parameters:
    ///   - adapters: the implementations the command can run, each selectable by name.
    ///   - arguments: the command-line arguments, without the program name.
    ///   - output: where the matrix goes; standard output by default.
    ///   - errorOutput: where progress and usage errors go; standard error by default.
    ///   - commandName: the name `--help` and the usage errors give the command; by default ``executableName``, the
    ///     name it was started by.
    public static func run(
        adapters: [any PromiseAdapter], arguments: [String],
        output: @Sendable (String) -> Void = { print($0) },
        errorOutput: @Sendable (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) },
        commandName: String = executableName
    ) async -> Int32 {
        let usage = usage(for: commandName)
        var parsed: Options
        do {
            parsed = try Options(arguments)
        } catch {
            errorOutput("\(commandName): \((error as? UsageError)?.message ?? "\(error)")\n\n\(usage)")
            return 2
        }
        parsed.caller = .command(commandName)
        let options = parsed
        if options.help {
            output(usage)
            return 0
        }
        if let id = options.runOne {
            // A child process of an isolated run: one clause over one implementation, one result line.
            guard let clause = Clause.named(id)?.with(options.programs), options.styles.count == 1,
                let adapter = adapters.first(where: { $0.name.lowercased() == options.styles[0].lowercased() })
            else {
                errorOutput("\(commandName): --run-one needs a known clause id and one known --style")
                return 2
            }
            let reporter = ChildReporter()
            reporter.exitWhenStuck(limit: Conformance.silenceLimit(options.timeout))
            reporter.report(await runOneOpened(adapter, clause, options, reporter: reporter))
            return Conformance.childExitCode
        }
        let clauses =
            (options.clausePrefixes.isEmpty
            ? Clause.all : Clause.all.filter { clause in options.clausePrefixes.contains { clause.id.hasPrefix($0) } })
            .map { $0.with(options.programs) }
        if clauses.isEmpty {
            errorOutput("\(commandName): no clause matches \(options.clausePrefixes.joined(separator: ", "))")
            return 2
        }
        if options.list {
            output(clauses.map(listing).joined(separator: "\n"))
            return 0
        }
        var selected: [any PromiseAdapter] = adapters
        if !options.styles.isEmpty {
            let known = Set(adapters.map { $0.name.lowercased() })
            if let unknown = options.styles.first(where: { !known.contains($0.lowercased()) }) {
                errorOutput(
                    "\(commandName): unknown style \(unknown); known: "
                        + adapters.map(\.name).joined(separator: ", "))
                return 2
            }
            let wanted = Set(options.styles.map { $0.lowercased() })
            selected = adapters.filter { wanted.contains($0.name.lowercased()) }
        }
        for adapter in selected {
            let errors =
                Conformance.deviationErrors(adapter.deviations)
                + Conformance.flakyDepartureErrors(adapter.flakyDepartures, deviations: adapter.deviations)
            if !errors.isEmpty {
                errorOutput("\(commandName): \(adapter.name): " + errors.joined(separator: "\n  "))
                return 2
            }
        }
        if let text = options.program {
            return await replay(text, on: selected, output: output, errorOutput: errorOutput, commandName: commandName)
        }
        if options.coverage {
            output(
                selected.map {
                    ProgramCoverage(capabilities: $0.capabilities, programs: options.programs).table(for: $0.name)
                }.joined(separator: "\n\n"))
            return 0
        }
        // The implementations run side by side (each runs its clauses one after the other): most of a clause's time
        // is spent waiting, for a grace period or for a hang to time out, so this takes about as long as the slowest.
        errorOutput("running \(clauses.count) clauses over \(selected.map(\.name).joined(separator: ", "))...")
        let reports = await withTaskGroup(of: (Int, ConformanceReport).self) { group in
            for (index, adapter) in selected.enumerated() {
                group.addTask { (index, await runOpened(adapter, clauses, options)) }
            }
            var byIndex: [Int: ConformanceReport] = [:]
            for await (index, report) in group { byIndex[index] = report }
            return selected.indices.compactMap { byIndex[$0] }
        }
        output(Matrix(clauses: clauses, reports: reports).render(options.format))
        if clauses.contains(where: { $0.programs != nil }), options.format == .text {
            output("generated programs: \(options.programs)")
        }
        return reports.allSatisfy(\.isConforming) ? 0 : 1
    }

    /// A clause as `--list` shows it: id and title, the statement, the capabilities it needs, and its cases, each
    /// as a deviation key names it (`2.2.4#then on an already-fulfilled promise`), or why it is not run.
    static func listing(_ clause: Clause) -> String {
        var lines = ["\(clause.id)  \(clause.title)", "    \(clause.statement)"]
        if !clause.requires.isEmpty { lines.append("    needs capability \(clause.requires)") }
        if let reason = clause.notMeaningful { lines.append("    not run (no meaning in typed Swift): \(reason)") }
        lines += clause.cases.map { "    case \(clause.id)\(Deviation.separator)\($0)" }
        return lines.joined(separator: "\n")
    }

    private static func runOpened<A: PromiseAdapter>(
        _ adapter: A, _ clauses: [Clause], _ options: Options
    ) async -> ConformanceReport {
        guard !options.inProcess else {
            return await Conformance.run(
                adapter, clauses: clauses, timeout: options.timeout, stress: options.stress ? true : nil,
                grace: Conformance.defaultGrace, repetitions: options.repetitions, programs: options.programs,
                caller: options.caller)
        }
        var results: [ClauseResult] = []
        for clause in clauses {
            results.append(
                await Conformance.repeated(
                    clause, capabilities: adapter.capabilities, flakyDepartures: adapter.flakyDepartures,
                    asked: options.repetitions
                ) { await runInChild(adapter, clause, options) })
        }
        return ConformanceReport(adapterName: adapter.name, capabilities: adapter.capabilities, results: results)
    }

    private static func runOneOpened<A: PromiseAdapter>(
        _ adapter: A, _ clause: Clause, _ options: Options, reporter: ChildReporter
    ) async -> ClauseResult {
        await Conformance.run(
            ErasedAdapter(adapter), clause, timeout: options.timeout,
            stress: options.stress || Conformance.stressFromEnvironment, grace: Conformance.defaultGrace,
            skipping: Set(options.skipCases), events: reporter.report, caller: options.caller)
    }

    /// Runs one clause in child processes: this executable, started again with `--run-one`, and again, skipping the
    /// cases already run, after a child that died in a case
    /// (``Conformance/runInChildren(_:deviations:capabilities:replay:runChild:)``).
    private static func runInChild<A: PromiseAdapter>(
        _ adapter: A, _ clause: Clause, _ options: Options
    ) async -> ClauseResult {
        if let skipped = Conformance.skipped(clause, capabilities: adapter.capabilities) { return skipped }
        var arguments = [
            "--run-one", clause.id, "--style", adapter.name, "--timeout", "\(options.timeout.seconds)",
        ]
        if options.stress { arguments.append("--stress") }
        if clause.programs != nil {
            arguments += ["--programs", "\(options.programs.count)", "--seed", "\(options.programs.seed)"]
        }
        return await Conformance.runInChildren(
            clause, deviations: adapter.deviations, capabilities: adapter.capabilities,
            replay: ProgramReplay(options.caller, for: adapter)
        ) { skipping in
            await Conformance.runChild(
                Conformance.currentExecutable, arguments + skipping.flatMap { ["--skip-case", $0] },
                silenceLimit: Conformance.silenceLimit(options.timeout) + .seconds(10))
        }
    }

    struct UsageError: Error {
        let message: String
    }

    struct Options {
        var styles: [String] = []
        var clausePrefixes: [String] = []
        var format = Format.text
        var timeout = ConformanceCommand.defaultTimeout
        var stress = false
        /// How many times each clause runs (`--repeat`).
        var repetitions = 1
        var inProcess = false
        var runOne: String?
        /// The cases `--run-one` does not run: those an earlier child process ran.
        var skipCases: [String] = []
        var list = false
        var help = false
        /// The generated clauses' programs (`--programs`, `--seed`).
        var programs = GeneratedPrograms.standard
        /// One program to run instead of the clauses (`--program`).
        var program: String?
        /// Print the generator's coverage table instead of running (`--coverage`).
        var coverage = false
        /// How a failing program's report says to replay it: with this command, under the name it was started by.
        var caller = ProgramReplay.Caller.swift

        init(_ arguments: [String]) throws {
            var remaining = arguments[...]
            func value(_ option: String) throws -> String {
                guard let value = remaining.popFirst() else { throw UsageError(message: "\(option) needs a value") }
                return value
            }
            func items(_ text: String) -> [String] {
                text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            }
            while let argument = remaining.popFirst() {
                var name = argument
                var inline: String?
                if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                    name = String(argument[..<equals])
                    inline = String(argument[argument.index(after: equals)...])
                }
                switch name {
                case "--style": styles += items(try inline ?? value(name))
                case "--clause": clausePrefixes += items(try inline ?? value(name))
                case "--format":
                    let text = try inline ?? value(name)
                    guard let format = Format(rawValue: text) else {
                        throw UsageError(message: "unknown format \(text); use text, markdown or json")
                    }
                    self.format = format
                case "--timeout":
                    let text = try inline ?? value(name)
                    guard let seconds = Double(text), seconds > 0 else {
                        throw UsageError(message: "--timeout needs a positive number of seconds, not \(text)")
                    }
                    timeout = .milliseconds(Int(seconds * 1000))
                case "--stress": stress = true
                case "--repeat":
                    let text = try inline ?? value(name)
                    guard let count = Int(text), count > 0 else {
                        throw UsageError(message: "--repeat needs a positive number of runs, not \(text)")
                    }
                    repetitions = count
                case "--in-process": inProcess = true
                case "--run-one": runOne = try inline ?? value(name)
                case "--skip-case": skipCases.append(try inline ?? value(name))
                case "--list": list = true
                case "--programs":
                    let text = try inline ?? value(name)
                    guard let count = Int(text), count >= 0 else {
                        throw UsageError(message: "--programs needs a number of programs (0 or more), not \(text)")
                    }
                    programs.count = count
                case "--seed":
                    let text = try inline ?? value(name)
                    let parsed = text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
                    guard let seed = parsed else {
                        throw UsageError(
                            message: "--seed needs a number (decimal, or hexadecimal after 0x), not \(text)")
                    }
                    programs.seed = seed
                case "--program": program = try inline ?? value(name)
                case "--coverage": coverage = true
                case "--help", "-h": help = true
                default: throw UsageError(message: "unknown argument \(argument)")
                }
            }
        }
    }
}
