// The matrix in docs/originals-conformance.md: PromiseKit 8.2.0 and Bolts-Swift 1.5.0 beside PromiseKitStyle and
// BoltsStyle. The originals were run by hand in throwaway packages (their code never enters this repository), so
// nothing here runs them: each original's column must show the verdicts recorded in
// docs/data/originals-conformance/, and each style's column must show the README's matrix, whose verdicts must in
// turn be what the style's adapter declares (its capabilities and deviations).
import Foundation
import PromiseConformance
import PromiseStyleAdapters
import TestSupport
import Testing

@Suite struct OriginalsConformance {
    static let page = "docs/originals-conformance.md"
    static let header = "| clause | title | PromiseKit 8.2.0 | PromiseKitStyle | Bolts-Swift 1.5.0 | BoltsStyle |"
    static let readme = "README.md"
    static let readmeHeader = "| clause | title | BoltsStyle | PromiseKitStyle | FBLStyle |"

    /// An original's column and the file holding its recorded verdicts.
    struct Original: Sendable, CustomStringConvertible {
        let name: String
        let data: String
        var description: String { name }
    }

    static let originals = [
        Original(name: "PromiseKit 8.2.0", data: "docs/data/originals-conformance/PromiseKit-8.2.0.json"),
        Original(name: "Bolts-Swift 1.5.0", data: "docs/data/originals-conformance/Bolts-Swift-1.5.0.json"),
    ]

    /// The clauses the originals were run on: every clause but the generated ones (`generated.*`) and the deep-chain
    /// family (`swift.deepChain.settled`, `swift.deepChain.dropped`), which came after the recording (the page says
    /// so).
    static let recordedClauses = Clause.all.filter { $0.programs == nil && !$0.id.hasPrefix("swift.deepChain.") }

    @Test func rowsAreTheSuiteClauses() throws {
        let table = try MarkdownMatrix(file: Self.page, header: Self.header)
        #expect(
            table.rows.map { $0[0] } == Self.recordedClauses.map { "`\($0.id)`" }, "\(Self.page): one row per clause")
        #expect(table.rows.map { $0[1] } == Self.recordedClauses.map(\.title), "\(Self.page): each row's title")
    }

    /// The page shows, for each original, the cells and the summary line of its recorded run.
    @Test(arguments: originals)
    func originalShowsItsRecordedVerdicts(_ original: Original) throws {
        let report = try RecordedReport.load(original.data)
        #expect(report.name == original.name)
        #expect(
            report.results.map(\.clause) == Self.recordedClauses.map(\.id), "\(original.data): one result per clause")
        let table = try MarkdownMatrix(file: Self.page, header: Self.header)
        let mismatches = table.mismatches(in: original.name, expected: report.results.map(\.cell))
        #expect(mismatches.isEmpty, "\(Self.page), column \(original.name), against \(original.data): \(mismatches)")
        #expect(
            table.linesBelow.contains("- \(report.summary)"),
            "\(Self.page): below the matrix, the line `- \(report.summary)`")
    }

    /// The styles' columns are the README's matrix for those styles.
    @Test func stylesShowTheReadmeMatrix() throws {
        let page = try MarkdownMatrix(file: Self.page, header: Self.header)
        let readme = try MarkdownMatrix(file: Self.readme, header: Self.readmeHeader)
        for style in ["PromiseKitStyle", "BoltsStyle"] {
            let column = try readme.column(style)
            let recorded = Clause.all.indices.filter { Self.recordedClauses.contains(Clause.all[$0]) }.map {
                column[$0]
            }
            let mismatches = page.mismatches(in: style, expected: recorded)
            #expect(mismatches.isEmpty, "\(Self.page), column \(style), against the README's: \(mismatches)")
        }
    }

    /// The README's matrix shows what each style's adapter declares: `n/a` where a clause has no meaning in typed
    /// Swift or needs a capability the adapter does not declare, `deviation` where it declares one, `pass` elsewhere
    /// (with `(helper)` where the suite's assimilation helper was used, which only a run shows).
    @Test func readmeShowsTheDeclaredVerdicts() throws {
        let readme = try MarkdownMatrix(file: Self.readme, header: Self.readmeHeader)
        let adapters: [any PromiseAdapter] = [BoltsStyleAdapter(), PromiseKitStyleAdapter(), FBLStyleAdapter()]
        for adapter in adapters {
            let declared = Clause.all.map { Self.declaredCell(adapter, $0) }
            let shown = try readme.column(adapter.name).map { $0.replacingOccurrences(of: " (helper)", with: "") }
            #expect(shown == declared, "\(Self.readme), column \(adapter.name), should read: \(declared)")
        }
    }

    /// A cell that differs from the data is reported, so that the checks above fail when the page is wrong.
    @Test func aChangedCellIsReported() {
        let table = MarkdownMatrix(
            lines: [Self.header, "|---|---|---|---|---|---|", "| `2.1.1.1` | t | **FAIL** | pass | pass | pass |", ""])
        #expect(table.mismatches(in: "PromiseKit 8.2.0", expected: ["pass"]) == ["2.1.1.1: **FAIL**, not pass"])
        #expect(table.mismatches(in: "PromiseKit 8.2.0", expected: ["**FAIL**"]).isEmpty)
        #expect(
            table.mismatches(in: "PromiseKit 8.2.0", expected: ["**FAIL**", "pass"]) == ["the table has 1 rows, not 2"])
    }

    static func declaredCell(_ adapter: any PromiseAdapter, _ clause: Clause) -> String {
        if !clause.applies(to: adapter.capabilities) { return "n/a" }
        // A generated clause shows a deviation where its programs meet a departure the adapter declares.
        if clause.programs != nil { return adapter.deviations.isEmpty ? "pass" : "deviation" }
        let declared = adapter.deviations.keys.contains { $0 == clause.id || $0.hasPrefix(clause.id + "#") }
        return declared ? "deviation" : "pass"
    }
}

/// The part of `promise-conformance --format json` that gives one implementation's verdicts.
struct RecordedReport: Decodable {
    struct Result: Decodable {
        let clause: String
        let status: String
        let assimilatedByHelper: Bool

        /// The cell as `--format markdown` prints it.
        var cell: String {
            let kind = ["passed": "pass", "failed": "FAIL", "deviation": "deviation", "notApplicable": "n/a"][status]
            let cell = (kind ?? "unknown status \(status)") + (assimilatedByHelper ? " (helper)" : "")
            return cell.hasPrefix("FAIL") ? "**\(cell)**" : cell
        }
    }

    let name: String
    let passed: Int
    let failed: Int
    let deviations: Int
    let notApplicable: Int
    let results: [Result]

    /// The summary line as the matrix prints it.
    var summary: String {
        "\(name): \(passed) passed, \(failed) failed, \(deviations) deviations, \(notApplicable) not applicable"
    }

    static func load(_ file: String) throws -> RecordedReport {
        let data = try Data(contentsOf: SampleRegions.packageRoot.appendingPathComponent(file))
        return try JSONDecoder().decode(RecordedReport.self, from: data)
    }
}

/// A matrix as `promise-conformance --format markdown` prints it, found in a Markdown file by its header line.
struct MarkdownMatrix {
    let columns: [String]
    /// The cells of each row after the header and its separator, trimmed.
    let rows: [[String]]
    /// The lines after the table.
    let linesBelow: [String]

    init(file: String, header: String) throws {
        let text = try String(contentsOf: SampleRegions.packageRoot.appendingPathComponent(file), encoding: .utf8)
        let lines = text.components(separatedBy: "\n")
        let start = try #require(lines.firstIndex(of: header), "\(file) has no table headed \(header)")
        self.init(lines: Array(lines[start...]))
    }

    /// `lines` starts with the header.
    init(lines: [String]) {
        columns = Self.cells(of: lines[0])
        rows = lines.dropFirst(2).prefix { $0.hasPrefix("|") }.map(Self.cells(of:))
        linesBelow = Array(lines.dropFirst(2 + rows.count))
    }

    /// The cells of column `name`, or nil when the table has no such column.
    func cells(in name: String) -> [String]? {
        guard let index = columns.firstIndex(of: name) else { return nil }
        return rows.map { $0.indices.contains(index) ? $0[index] : "" }
    }

    func column(_ name: String) throws -> [String] {
        try #require(cells(in: name), "no column \(name)")
    }

    /// The rows whose cell in `name` is not the expected one, as `id: shown, not expected`.
    func mismatches(in name: String, expected: [String]) -> [String] {
        guard let shown = cells(in: name) else { return ["no column \(name)"] }
        guard shown.count == expected.count else { return ["the table has \(shown.count) rows, not \(expected.count)"] }
        return zip(rows, zip(shown, expected)).compactMap { row, pair in
            pair.0 == pair.1 ? nil : "\(row[0].trimmingCharacters(in: ["`"])): \(pair.0), not \(pair.1)"
        }
    }

    private static func cells(of row: String) -> [String] {
        row.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
            .map { $0.trimmingCharacters(in: .whitespaces) }
    }
}
