// The package's Markdown documentation as the link and figure checks read it: which files count, and their prose
// (the text outside fenced code blocks).

import Foundation

/// The root of the package, found from this file's path.
let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// One Markdown file of the documentation.
struct Document {
    /// The file.
    let url: URL

    /// The path from the package root, for messages.
    var path: String { String(url.path.dropFirst(packageRoot.path.count + 1)) }

    /// The text with every line of a fenced code block emptied, so that each line keeps its number.
    let prose: String

    /// Where each line of `prose` after the first starts.
    private let lineStarts: [String.Index]

    /// The 1-based line number of `index`, an index of `prose`.
    func line(of index: String.Index) -> Int {
        1 + lineStarts.prefix { $0 <= index }.count
    }

    /// Reads the file at `url`.
    init(_ url: URL) throws {
        self.url = url
        let text = try String(contentsOf: url, encoding: .utf8)
        var fenced = false
        let prose = text.components(separatedBy: "\n").map { line in
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                fenced.toggle()
                return ""
            }
            return fenced ? "" : line
        }.joined(separator: "\n")
        self.prose = prose
        self.lineStarts = prose.indices.filter { prose[$0] == "\n" }.map { prose.index(after: $0) }
    }

    /// Every Markdown file a reader of the package meets: README.md, CHANGELOG.md, docs/*.md and the DocC articles
    /// (Sources/*/*.docc/*.md).
    static func all() throws -> [Document] {
        let files = FileManager.default
        func markdown(in folder: URL) throws -> [URL] {
            try files.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil).filter {
                $0.pathExtension == "md"
            }
        }
        var urls = ["README.md", "CHANGELOG.md"].map { packageRoot.appendingPathComponent($0) }
        urls += try markdown(in: packageRoot.appendingPathComponent("docs"))
        let sources = packageRoot.appendingPathComponent("Sources")
        for module in try files.contentsOfDirectory(at: sources, includingPropertiesForKeys: nil) {
            let catalogs = (try? files.contentsOfDirectory(at: module, includingPropertiesForKeys: nil)) ?? []
            for catalog in catalogs where catalog.pathExtension == "docc" {
                urls += try markdown(in: catalog)
            }
        }
        return try urls.filter { files.fileExists(atPath: $0.path) }.sorted { $0.path < $1.path }.map(Document.init)
    }
}
