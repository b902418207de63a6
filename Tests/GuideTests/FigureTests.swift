// One source for every measured number: docs/benchmarks.md, written by `bash Benchmarks/compare` (with the notes of
// Benchmarks/NOTES.md). The README, the changelog, the guide and the DocC articles link to it and quote no figure
// from it; code blocks are not checked (the guide's tour timelines print times on purpose).
//
// What counts as a quoted figure, in prose:
// - a time in nanoseconds or microseconds, the benchmarks' units (`250 ns`, `21.9 µs`, `32-40 ns`);
// - a ratio (`1.56×`, `3.2x`);
// - an allocation count (`3 allocations`, `2 mallocs`);
// - a time in milliseconds in a paragraph or table row that links to docs/benchmarks.md. Elsewhere milliseconds
//   are the scenarios' own durations ("answers after 20 ms"), which the tour's code sets, not measurements.

import Foundation
import Testing

/// A measured figure found in a document's prose.
private struct Figure: CustomStringConvertible {
    let place: String
    let text: String
    var description: String { "\(place): `\(text)`" }
}

/// The quoted figures in `document`'s prose.
private func figures(in document: Document) -> [Figure] {
    let prose = document.prose
    var found: [Figure] = []
    func record(_ range: Range<String.Index>) {
        found.append(
            Figure(place: "\(document.path):\(document.line(of: range.lowerBound))", text: String(prose[range])))
    }
    let always = [
        /\d[\d,.]*(?:\s?-\s?\d[\d,.]*)?\s?(?:ns|µs|μs)\b/,
        /\d+(?:\.\d+)?\s?[×x](?!\w)/,
        /\d[\d,.]*\s+(?:allocations?|mallocs?)\b/,
    ]
    for pattern in always {
        for match in prose.matches(of: pattern) where !isPartOfWord(match.range, in: prose) {
            record(match.range)
        }
    }
    // Paragraphs, and each table row on its own.
    var blocks: [Substring] = []
    for paragraph in prose.split(separator: "\n\n", omittingEmptySubsequences: true) {
        let lines = paragraph.split(separator: "\n")
        if lines.allSatisfy({ $0.hasPrefix("|") }) { blocks += lines } else { blocks.append(paragraph) }
    }
    for block in blocks where block.contains("benchmarks.md") {
        for match in block.matches(of: /\d[\d,.]*\s?ms\b/) where !isPartOfWord(match.range, in: prose) {
            record(match.range)
        }
    }
    return found
}

/// Whether the match at `range` starts inside a word or a longer number (`B5`, `0x1F`, `v2`), which is no figure.
private func isPartOfWord(_ range: Range<String.Index>, in text: String) -> Bool {
    guard range.lowerBound > text.startIndex else { return false }
    let before = text[text.index(before: range.lowerBound)]
    return before.isLetter || before.isNumber || before == "_" || before == "."
}

@Suite("one source for every number")
struct FigureTests {
    @Test func noDocumentButTheBenchmarksQuotesAMeasuredFigure() throws {
        let documents = try Document.all().filter { $0.path != "docs/benchmarks.md" }
        #expect(documents.contains { $0.path == "docs/guide.md" })
        #expect(documents.contains { $0.path.hasSuffix(".docc/HowBFTaskWorks.md") })
        for figure in documents.flatMap(figures(in:)) {
            Issue.record("\(figure) looks like a measured figure: link to docs/benchmarks.md instead of quoting it")
        }
    }

    /// The check itself, on the kinds of text it must and must not catch.
    @Test func theCheckCatchesTimingsRatiosAndCountsButNotTheScenariosDurations() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("figures-\(UUID().uuidString).md")
        defer { try? FileManager.default.removeItem(at: url) }
        let text = """
            Each call answers after 20 ms; the 50 ms timeout wins. A fetch takes 200 ms.

            ```text
                 20.4 ms  T1     network                 ← query ada
            ```

            In [B5](benchmarks.md#b5) it takes 210 ns and 3 allocations, 3.82x the floor (10× in a pool); FBLStyle 21.9 µs.

            | row | 1.56× | 4.37 ms ([B4](benchmarks.md#b4)) |

            B5 and B6 are benchmarks, 0x1F is hex, and 2.2.4 is an A+ clause.
            """
        try text.write(to: url, atomically: true, encoding: .utf8)
        let found = figures(in: try Document(url)).map(\.text)
        #expect(found.sorted() == ["1.56×", "10×", "21.9 µs", "210 ns", "3 allocations", "3.82x", "4.37 ms"].sorted())
    }
}
