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
/// list), `--format text|markdown|json`, `--timeout SECONDS`, `--stress`, `--list`, `--help`.
///
/// The exit status is 0 when no clause failed, 1 when a clause failed that the style does not declare as a
/// deviation (or a declared deviation was not observed), and 2 for a usage error.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
public enum ConformanceCommand {
    /// The output formats of the matrix.
    public enum Format: String, Sendable, CaseIterable {
        /// An aligned plain-text table, then a summary line per style and the details of every cell that is not a pass.
        case text
        /// A Markdown table, then the summaries and details as lists.
        case markdown
        /// One JSON document with every result.
        case json
    }

    /// The time limit of each clause on the command line, shorter than ``Conformance/defaultTimeout`` so that a
    /// hanging clause (a declared deviation like a task that waits for itself) costs seconds, not half a minute.
    /// Raise it with `--timeout` on a slow machine.
    public static let defaultTimeout: Duration = .seconds(10)

    /// The help text.
    public static let usage = """
        usage: promise-conformance [--style NAME]... [--clause PREFIX]... [--format text|markdown|json]
                                   [--timeout SECONDS] [--stress] [--list] [--help]

        Runs the Promises/A+-style conformance suite over promise implementations and prints the matrix:
        clauses as rows, implementations as columns, cells pass / FAIL / deviation / n/a.

          --style NAME      only this implementation (repeatable, or a comma-separated list; case-insensitive)
          --clause PREFIX   only clauses whose id starts with PREFIX, e.g. 2.2, 2.3.3, swift. (repeatable, or a list)
          --format FORMAT   text (default), markdown or json
          --timeout SECONDS the time limit of each clause (default 10); a clause that hangs fails after it
          --stress          many more race iterations and a 1,000,000-step chain (same as PROMISES_STRESS=1)
          --list            list the clauses and exit
          --help            this text

        Exit status: 0 when no clause failed, 1 when a clause failed that the implementation does not declare as a
        deviation, 2 for a usage error.
        """

    /// Parses `arguments` (without the program name), runs the suite over the selected `adapters` side by side,
    /// prints the matrix to standard output, and returns the exit status.
    ///
    /// - Parameters:
    ///   - output: where the matrix goes; standard output by default.
    ///   - errorOutput: where progress and usage errors go; standard error by default.
    public static func run(
        adapters: [any PromiseAdapter], arguments: [String],
        output: @Sendable (String) -> Void = { print($0) },
        errorOutput: @Sendable (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
    ) async -> Int32 {
        let options: Options
        do {
            options = try Options(arguments)
        } catch {
            errorOutput("promise-conformance: \((error as? UsageError)?.message ?? "\(error)")\n\n\(usage)")
            return 2
        }
        if options.help {
            output(usage)
            return 0
        }
        let clauses =
            options.clausePrefixes.isEmpty
            ? Clause.all : Clause.all.filter { clause in options.clausePrefixes.contains { clause.id.hasPrefix($0) } }
        if clauses.isEmpty {
            errorOutput("promise-conformance: no clause matches \(options.clausePrefixes.joined(separator: ", "))")
            return 2
        }
        if options.list {
            output(clauses.map { "\($0.id)  \($0.title)\n    \($0.statement)" }.joined(separator: "\n"))
            return 0
        }
        var selected: [any PromiseAdapter] = adapters
        if !options.styles.isEmpty {
            let known = Set(adapters.map { $0.name.lowercased() })
            if let unknown = options.styles.first(where: { !known.contains($0.lowercased()) }) {
                errorOutput(
                    "promise-conformance: unknown style \(unknown); known: "
                        + adapters.map(\.name).joined(separator: ", "))
                return 2
            }
            let wanted = Set(options.styles.map { $0.lowercased() })
            selected = adapters.filter { wanted.contains($0.name.lowercased()) }
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
        return reports.allSatisfy(\.isConforming) ? 0 : 1
    }

    private static func runOpened<A: PromiseAdapter>(
        _ adapter: A, _ clauses: [Clause], _ options: Options
    ) async -> ConformanceReport {
        await Conformance.run(adapter, clauses: clauses, timeout: options.timeout, stress: options.stress ? true : nil)
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
        var list = false
        var help = false

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
                case "--list": list = true
                case "--help", "-h": help = true
                default: throw UsageError(message: "unknown argument \(argument)")
                }
            }
        }
    }
}
