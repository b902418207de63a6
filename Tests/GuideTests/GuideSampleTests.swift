// Keeps docs/guide.md and the code it shows identical. In the guide, every Swift code block is preceded by a marker
// naming the file and the region it copies:
//
//     <!-- sample: Sources/PromiseTour/BoltsScenarios.swift#bolts-1 -->
//
// and the region is the lines between `// guide:begin bolts-1` and `// guide:end bolts-1` in that file (indentation
// common to all its lines removed). ScenarioTests runs those samples; this suite checks the guide shows them verbatim,
// that it shows no Swift code that is not such a region, and that it shows every region. It also checks the guide's
// links: files exist, `#L<n>` anchors point at a line that contains the linked name, headings exist.

import Foundation
import Testing

/// The root of the package, found from this file's path.
private let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// A Swift code block of the guide and the region it claims to copy.
private struct GuideBlock {
    let marker: String?
    let code: String
    let line: Int
}

private func guideBlocks() throws -> [GuideBlock] {
    let text = try String(contentsOf: packageRoot.appendingPathComponent("docs/guide.md"), encoding: .utf8)
    let lines = text.components(separatedBy: "\n")
    var blocks: [GuideBlock] = []
    var marker: String?
    var index = 0
    while index < lines.count {
        let line = lines[index]
        if line.hasPrefix("<!-- sample: "), line.hasSuffix(" -->") {
            marker = String(line.dropFirst("<!-- sample: ".count).dropLast(" -->".count))
        } else if line.hasPrefix("```swift") {
            let start = index + 1
            var end = start
            while end < lines.count, !lines[end].hasPrefix("```") { end += 1 }
            blocks.append(GuideBlock(marker: marker, code: lines[start..<end].joined(separator: "\n"), line: index + 1))
            marker = nil
            index = end
        } else if !line.trimmingCharacters(in: .whitespaces).isEmpty {
            marker = nil  // a marker applies only to the code block right after it
        }
        index += 1
    }
    return blocks
}

/// The regions of `file`, by name, dedented.
private func regions(in file: String) throws -> [String: String] {
    let text = try String(contentsOf: packageRoot.appendingPathComponent(file), encoding: .utf8)
    var result: [String: String] = [:]
    var current: (name: String, lines: [String])?
    for line in text.components(separatedBy: "\n") {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("// guide:begin ") {
            current = (String(trimmed.dropFirst("// guide:begin ".count)), [])
        } else if trimmed.hasPrefix("// guide:end "), let region = current {
            let indent = region.lines.filter { !$0.isEmpty }.map { $0.prefix { $0 == " " }.count }.min() ?? 0
            result[region.name] = region.lines.map { String($0.dropFirst(min(indent, $0.count))) }
                .joined(separator: "\n")
            current = nil
        } else if current != nil {
            current!.lines.append(line)
        }
    }
    return result
}

private let sampleFiles = [
    "Sources/PromiseTour/BoltsStore.swift", "Sources/PromiseTour/PromiseKitStore.swift",
    "Sources/PromiseTour/FBLStore.swift", "Sources/PromiseTour/AsyncStore.swift",
    "Sources/PromiseTour/BoltsScenarios.swift", "Sources/PromiseTour/PromiseKitScenarios.swift",
    "Sources/PromiseTour/FBLScenarios.swift", "Sources/PromiseTour/AsyncScenarios.swift",
    "Sources/PromiseTour/GCDScenarios.swift",
]

@Suite("docs/guide.md shows the tested code")
struct GuideSampleTests {
    @Test func everySwiftBlockIsAMarkedRegionCopiedVerbatim() throws {
        let blocks = try guideBlocks()
        #expect(!blocks.isEmpty)
        for block in blocks {
            guard let marker = block.marker else {
                Issue.record(
                    "docs/guide.md:\(block.line): a Swift block without a `<!-- sample: file#region -->` marker")
                continue
            }
            let parts = marker.split(separator: "#").map(String.init)
            try #require(parts.count == 2, "docs/guide.md:\(block.line): bad marker \(marker)")
            let region = try regions(in: parts[0])[parts[1]]
            #expect(region != nil, "docs/guide.md:\(block.line): no region \(parts[1]) in \(parts[0])")
            #expect(block.code == region, "docs/guide.md:\(block.line) differs from \(marker)")
        }
    }

    @Test func everyRegionIsShownInTheGuide() throws {
        let shown = Set(try guideBlocks().compactMap(\.marker))
        for file in sampleFiles {
            for name in try regions(in: file).keys {
                #expect(shown.contains("\(file)#\(name)"), "\(file)#\(name) is not in docs/guide.md")
            }
        }
    }
}

/// GitHub's anchor for a Markdown heading.
private func slug(_ heading: String) -> String {
    String(
        heading.lowercased().compactMap { character -> Character? in
            if character == " " { return "-" }
            if character.isLetter || character.isNumber || character == "-" || character == "_" { return character }
            return nil
        })
}

/// The anchors of the headings of the Markdown file at `path`.
private func anchors(of path: URL) throws -> Set<String> {
    let text = try String(contentsOf: path, encoding: .utf8)
    return Set(
        text.components(separatedBy: "\n").filter { $0.hasPrefix("#") }
            .map { slug(String($0.drop { $0 == "#" }.dropFirst())) })
}

@Suite("docs/guide.md links")
struct GuideLinkTests {
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // Regex
    @Test func everyLinkResolves() throws {
        let guide = packageRoot.appendingPathComponent("docs/guide.md")
        let text = try String(contentsOf: guide, encoding: .utf8)
        let link = /\[([^\]]*)\]\(([^)\s]+)\)/
        var checked = 0
        for match in text.matches(of: link) {
            let label = String(match.output.1)
            let target = String(match.output.2)
            if target.hasPrefix("http") { continue }
            let parts = target.split(separator: "#", maxSplits: 1).map(String.init)
            let file =
                target.hasPrefix("#") ? guide : guide.deletingLastPathComponent().appendingPathComponent(parts[0])
            let fragment = target.hasPrefix("#") ? String(target.dropFirst()) : parts.count > 1 ? parts[1] : nil
            #expect(FileManager.default.fileExists(atPath: file.path), "\(target): no such file")
            checked += 1
            guard let fragment else { continue }
            if fragment.hasPrefix("L"), let number = Int(fragment.dropFirst()) {
                let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
                try #require(number <= lines.count, "\(target): the file has \(lines.count) lines")
                // `BFThreadLocal.runInline` names `runInline`, `waitForPromises(timeout:)` names `waitForPromises`.
                let symbol = label.trimmingCharacters(in: CharacterSet(charactersIn: "`"))
                let name = symbol.prefix { $0 != "(" }.split(separator: ".").last.map(String.init) ?? symbol
                if label.hasPrefix("`"), !symbol.contains(" "), !symbol.hasSuffix(".swift") {
                    #expect(lines[number - 1].contains(name), "\(target): line \(number) does not mention \(name)")
                }
            } else {
                #expect(try anchors(of: file).contains(fragment), "\(target): no such heading")
            }
        }
        #expect(checked > 50)
    }
}
