// The toys' matrix in docs/guide.md ("The toys through the conformance suite"): one table with a column per style and
// per toy, and one summary line per column below it. ToysConformance checks it against a run of the suite.
import Foundation
import PromiseConformance
import TestSupport
import Testing

/// A matrix cell, as `promise-conformance` prints it: `pass`, `FAIL`, `deviation` or `n/a`, and ` (helper)` for a
/// verdict about the suite's assimilation helper.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
func matrixCell(_ result: ClauseResult) -> String {
    result.status.cell + (result.assimilatedByHelper ? " (helper)" : "")
}

/// `result` as the guide's matrix shows it: a deviation on a clause the adapter declares a flaky departure shows only
/// in the runs where the race is lost (BoltsStyle's 2.2.6.1 and 2.2.6.2), so it is shown, and compared, as the pass it
/// is in the other runs. Any other result is unchanged, and a flaky clause that failed outright still fails.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
func withoutDeclaredFlake(_ result: ClauseResult, of adapter: any PromiseAdapter) -> ClauseResult {
    guard case .deviation = result.status, adapter.flakyDepartures[result.clause.id] != nil else { return result }
    return ClauseResult(
        clause: result.clause, status: .passed, duration: result.duration, graceWaits: result.graceWaits,
        assimilatedByHelper: result.assimilatedByHelper, casesRun: result.casesRun, caseResults: result.caseResults)
}

enum GuideToyMatrix {
    static let guide = "docs/guide.md"
    static let header = "| clause | title | BoltsStyle | ToyTask | PromiseKitStyle | QueueBox | FBLStyle | ToyPromise |"

    /// Checks that the guide's table shows each report's verdicts in the report's column, row by row, and its
    /// summary line below the table; on a difference, the issue gives the column as it should read.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    static func expectShows(_ reports: [ConformanceReport], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let lines = try String(contentsOf: SampleRegions.packageRoot.appendingPathComponent(guide), encoding: .utf8)
            .components(separatedBy: "\n")
        guard let start = lines.firstIndex(of: header) else {
            Issue.record("\(guide) has no table headed \(header)", sourceLocation: sourceLocation)
            return
        }
        let columns = cells(of: header)
        let rows = lines[(start + 2)...].prefix { $0.hasPrefix("|") }.map(cells(of:))
        #expect(
            rows.map { $0[0] } == Clause.all.map { "`\($0.id)`" }, "\(guide): the toys' matrix has a row per clause",
            sourceLocation: sourceLocation)
        let below = lines[(start + 2 + rows.count)...].prefix { !$0.hasPrefix("#") }
        for report in reports {
            let column = try #require(columns.firstIndex(of: report.adapterName), "no column \(report.adapterName)")
            let shown = rows.map { $0.indices.contains(column) ? $0[column] : "" }
            let run = Clause.all.map { clause in report[clause.id].map(matrixCell) ?? "-" }
            #expect(
                shown == run,
                """
                \(guide): the toys' matrix, column \(report.adapterName), should read (row by row):
                \(zip(Clause.all, run).map { "\($0.id): \($1)" }.joined(separator: "\n"))
                """, sourceLocation: sourceLocation)
            #expect(
                below.contains("- \(report.summary)"),
                "\(guide): below the toys' matrix, the line `- \(report.summary)`", sourceLocation: sourceLocation)
        }
    }

    /// The cells of a table row, trimmed.
    private static func cells(of row: String) -> [String] {
        row.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
            .map { $0.trimmingCharacters(in: .whitespaces) }
    }
}
