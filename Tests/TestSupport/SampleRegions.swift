import Foundation

/// The code regions that the documentation shows verbatim: the lines of a Swift file between
/// `// guide:begin name` and `// guide:end name`, with the indentation common to all of them removed.
///
/// docs/guide.md marks each copy with `<!-- sample: file#name -->` (GuideSampleTests checks them); the toy models'
/// regions and the Swift Task adapter's are shown in the DocC articles instead (ArticleCodeTests checks those).
public enum SampleRegions {
    /// The root of the package, found from this file's path.
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The regions of `file` (a path from the package root), by name.
    public static func regions(in file: String) throws -> [String: String] {
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

    /// The Swift code blocks of a Markdown file (a path from the package root), each without its fences.
    public static func swiftBlocks(in file: String) throws -> [String] {
        let text = try String(contentsOf: packageRoot.appendingPathComponent(file), encoding: .utf8)
        var blocks: [String] = []
        var current: [String]?
        for line in text.components(separatedBy: "\n") {
            if current == nil, line.hasPrefix("```swift") {
                current = []
            } else if current != nil, line.hasPrefix("```") {
                blocks.append(current!.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }
}
