import Foundation

/// The conformance matrix of several reports: clauses as rows, implementations as columns.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
public struct Matrix: Sendable {
    /// The rows.
    public let clauses: [Clause]
    /// The columns, one report per implementation.
    public let reports: [ConformanceReport]

    /// Creates the matrix of `reports` over `clauses`.
    public init(clauses: [Clause], reports: [ConformanceReport]) {
        self.clauses = clauses
        self.reports = reports
    }

    /// The matrix in `format`.
    public func render(_ format: Format) -> String {
        switch format {
        case .text: text
        case .markdown: markdown
        case .json: json
        }
    }

    private func cell(_ report: ConformanceReport, _ clause: Clause) -> String {
        guard let result = report[clause.id] else { return "-" }
        return result.status.cell + (result.assimilatedByHelper ? " (helper)" : "")
    }

    /// The footnote of the `(helper)` cells, when there are any.
    private var helperNote: [String] {
        guard reports.contains(where: { $0.results.contains(where: \.assimilatedByHelper) }) else { return [] }
        return [
            "",
            "(helper): the adapter handed the suite's thenables to Assimilation.resolve, the suite's own A+ 2.3.3 "
                + "procedure, because its library cannot assimilate a foreign thenable: the verdict is that helper's.",
        ]
    }

    /// The failed and deviation cells, with their messages.
    private var details: [String] {
        reports.flatMap { report in
            report.results.filter { $0.status.isFailure || $0.status.cell == "deviation" }.map {
                "\(report.adapterName) \($0.clause.id): \($0.status)"
            }
        }
    }

    /// The rows that are `n/a` for every implementation because the requirement has no meaning in typed Swift.
    private var notMeaningful: [String] {
        clauses.compactMap { clause in clause.notMeaningful.map { "\(clause.id) \(clause.title): \($0)" } }
    }

    /// An aligned plain-text table, the summaries, and the details of failures and deviations.
    public var text: String {
        let header = ["clause", "title"] + reports.map(\.adapterName)
        let rows = clauses.map { clause in [clause.id, clause.title] + reports.map { cell($0, clause) } }
        let widths = header.indices.map { column in
            ([header] + rows).map { $0[column].count }.max() ?? 0
        }
        func line(_ fields: [String]) -> String {
            zip(fields, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
        var lines = [line(header), line(widths.map { String(repeating: "-", count: $0) })]
        lines += rows.map(line)
        lines += [""] + reports.map(\.summary) + helperNote
        if !notMeaningful.isEmpty {
            lines +=
                ["", "n/a for every implementation (no meaning in typed Swift):"] + notMeaningful.map { "  " + $0 }
        }
        if !details.isEmpty { lines += ["", "details:"] + details.map { indented($0, first: "  ", rest: "    ") } }
        return lines.joined(separator: "\n")
    }

    /// `text` with `first` before its first line and `rest` before each line after it.
    private func indented(_ text: String, first: String, rest: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            .map { ($0.offset == 0 ? first : rest) + $0.element }.joined(separator: "\n")
    }

    /// A Markdown table, the summaries, and the details.
    public var markdown: String {
        func escape(_ text: String) -> String { text.replacingOccurrences(of: "|", with: "\\|") }
        var lines = [
            "| clause | title | " + reports.map { escape($0.adapterName) }.joined(separator: " | ") + " |",
            "|---|---|" + String(repeating: "---|", count: reports.count),
        ]
        lines += clauses.map { clause in
            let cells = reports.map { report in
                let cell = cell(report, clause)
                return cell.hasPrefix("FAIL") ? "**\(cell)**" : cell
            }
            return "| `\(clause.id)` | \(escape(clause.title)) | " + cells.joined(separator: " | ") + " |"
        }
        lines += [""] + reports.map { "- " + $0.summary } + helperNote
        if !notMeaningful.isEmpty {
            lines +=
                ["", "n/a for every implementation (no meaning in typed Swift):", ""]
                + notMeaningful.map { "- " + escape($0) }
        }
        if !details.isEmpty {
            lines += ["", "Details:", ""] + details.map { indented(escape($0), first: "- ", rest: "  ") }
        }
        return lines.joined(separator: "\n")
    }

    /// One JSON document: the clauses, and per implementation its summary and results.
    public var json: String {
        struct ClauseEntry: Encodable {
            let id: String
            let title: String
            let statement: String
            let cases: [String]
            let notMeaningful: String?
        }
        struct ReportEntry: Encodable {
            let name: String
            let capabilities: String
            let passed: Int
            let failed: Int
            let deviations: Int
            let notApplicable: Int
            let results: [ResultRecord]
        }
        struct Document: Encodable {
            let clauses: [ClauseEntry]
            let styles: [ReportEntry]
        }
        let document = Document(
            clauses: clauses.map {
                ClauseEntry(
                    id: $0.id, title: $0.title, statement: $0.statement, cases: $0.cases,
                    notMeaningful: $0.notMeaningful)
            },
            styles: reports.map { report in
                ReportEntry(
                    name: report.adapterName, capabilities: report.capabilities.description,
                    passed: report.passed.count, failed: report.failures.count,
                    deviations: report.deviations.count, notApplicable: report.notApplicable.count,
                    results: report.results.map(ResultRecord.init))
            })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(document)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}

extension Matrix {
    /// The output formats of the matrix.
    public enum Format: String, Sendable, CaseIterable {
        /// An aligned plain-text table, then a summary line per style and the details of every cell that is not a pass.
        case text
        /// A Markdown table, then the summaries and details as lists.
        case markdown
        /// One JSON document with every result.
        case json
    }
}
