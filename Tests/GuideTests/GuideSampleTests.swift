// Keeps docs/guide.md and the code it shows identical. In the guide, every Swift code block is preceded by a marker
// naming the file and the region it copies:
//
//     <!-- sample: Sources/PromiseTour/BoltsScenarios.swift#bolts-1 -->
//
// and the region is the lines between `// guide:begin bolts-1` and `// guide:end bolts-1` in that file (indentation
// common to all its lines removed). ScenarioTests runs those samples; this suite checks the guide shows them verbatim,
// that it shows no Swift code that is not such a region, and that it shows every region. (LinkTests checks the links.)

import Foundation
import Testing

import enum TestSupport.SampleRegions

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
            let region = try SampleRegions.regions(in: parts[0])[parts[1]]
            #expect(region != nil, "docs/guide.md:\(block.line): no region \(parts[1]) in \(parts[0])")
            #expect(block.code == region, "docs/guide.md:\(block.line) differs from \(marker)")
        }
    }

    @Test func everyRegionIsShownInTheGuide() throws {
        let shown = Set(try guideBlocks().compactMap(\.marker))
        for file in sampleFiles {
            for name in try SampleRegions.regions(in: file).keys {
                #expect(shown.contains("\(file)#\(name)"), "\(file)#\(name) is not in docs/guide.md")
            }
        }
    }
}
