// The folders of Sources/PromiseConformance depend one way: each uses only the folders above it in the module
// overview's table ("The source, folder by folder"). Read from the sources: every type declared at the top level of a
// file belongs to its folder, and a file that names a type of a folder below its own breaks the order. So do the
// parts of a clause's context, in the list below the table: each uses only the parts above it, and not ClauseContext.
import Foundation
import TestSupport
import Testing

@Suite struct FolderLayering {
    static let module = SampleRegions.packageRoot.appendingPathComponent("Sources/PromiseConformance")

    /// The overview's section "The source, folder by folder", up to its topics.
    static func layeringSection() throws -> String {
        let overview = try String(
            contentsOf: module.appendingPathComponent("PromiseConformance.docc/PromiseConformance.md"), encoding: .utf8)
        let section = try #require(overview.components(separatedBy: "### The source, folder by folder").last)
        return section.components(separatedBy: "## Topics")[0]
    }

    /// The folders in the overview's order, read from its table.
    static func statedOrder() throws -> [String] {
        try layeringSection().split(separator: "\n").compactMap { line in
            guard line.hasPrefix("| `"), let end = line.dropFirst(3).firstIndex(of: "`") else { return nil }
            return String(line[line.index(line.startIndex, offsetBy: 3)..<end])
        }
    }

    /// Each Swift file of `folder`, as (name, text without comments and string literals).
    static func files(in folder: String) throws -> [(name: String, text: String)] {
        let url = module.appendingPathComponent(folder)
        return try FileManager.default.contentsOfDirectory(atPath: url.path).sorted().filter { $0.hasSuffix(".swift") }
            .map { name in
                let raw = try String(contentsOf: url.appendingPathComponent(name), encoding: .utf8)
                let text = raw.replacing(#/"(?:[^"\\\n]|\\.)*"/#, with: "\"\"").replacing(#/\/\/[^\n]*/#, with: "")
                return (name, text)
            }
    }

    /// The types a file declares at the top level (`struct`, `enum`, `class`, `protocol`, `typealias`, `actor`).
    static func topLevelTypes(_ text: String) -> [String] {
        let modifier = "(?:public|package|internal|private|fileprivate|final|@usableFromInline|@frozen)[ ]+"
        let kind = "(?:struct|enum|class|protocol|typealias|actor)[ ]+"
        let declaration = try! Regex("(?m)^(?:\(modifier))*\(kind)([A-Za-z_][A-Za-z0-9_]*)")
        return text.matches(of: declaration).compactMap { $0.output[1].substring.map(String.init) }
    }

    /// The types a file declares inside another: a file that names one of these means its own.
    static func nestedTypes(_ text: String) -> Set<String> {
        let modifier = "(?:public|package|internal|private|fileprivate|final|@usableFromInline)[ ]+"
        let kind = "(?:struct|enum|class|protocol|typealias)[ ]+"
        let declaration = try! Regex("(?m)^[ ]+(?:\(modifier))*\(kind)([A-Za-z_][A-Za-z0-9_]*)")
        return Set(text.matches(of: declaration).compactMap { $0.output[1].substring.map(String.init) })
    }

    /// Whether `text` names `type` on its own: not as part of a longer name, nor as a member type
    /// (`ProgramRun.HandlerCall`).
    static func names(_ type: String, in text: String) throws -> Bool {
        // Simple word boundaries: by default `\\b` follows Unicode, for which `Clause.self` is one word.
        try text.contains(Regex("(?m)(?:^|[^.A-Za-z0-9_])\(type)\\b").wordBoundaryKind(.simple))
    }

    /// The parts of a clause's context in the overview's order, read from the list below its table: each item starts
    /// with a part's name in backticks and a colon.
    static func statedParts() throws -> [String] {
        try layeringSection().split(separator: "\n").compactMap { line in
            line.firstMatch(of: #/^- `([A-Za-z]+)`: /#).map { String($0.output.1) }
        }
    }

    /// No file names a type of a folder below its own, and every folder of the module is in the table.
    @Test func eachFolderUsesOnlyTheFoldersAboveIt() throws {
        let order = try Self.statedOrder()
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.module.path).filter {
            !$0.hasSuffix(".docc") && !$0.hasPrefix(".")
        }
        #expect(Set(folders) == Set(order), "the overview's table should list exactly the folders \(folders.sorted())")
        var owner: [String: Int] = [:]
        let sources = try order.map { try Self.files(in: $0) }
        for (rank, files) in sources.enumerated() {
            for file in files { for type in Self.topLevelTypes(file.text) { owner[type] = rank } }
        }
        var upward: [String] = []
        for (rank, files) in sources.enumerated() {
            for file in files {
                let own = Self.nestedTypes(file.text)
                for (type, typeRank) in owner where typeRank > rank && !own.contains(type) {
                    if try Self.names(type, in: file.text) {
                        upward.append("\(order[rank])/\(file.name) uses \(type) (\(order[typeRank]))")
                    }
                }
            }
        }
        #expect(upward.isEmpty, "\(upward.sorted().joined(separator: "\n"))")
    }

    /// Each part of `ClauseContext` (in `Clauses`, a file named after it) names only the parts above it in the
    /// overview's list, and not `ClauseContext`.
    @Test func eachContextPartUsesOnlyThePartsAboveIt() throws {
        let parts = try Self.statedParts()
        #expect(parts.count > 1, "the overview should list the parts of ClauseContext below its table")
        let files = Dictionary(uniqueKeysWithValues: try Self.files(in: "Clauses").map { ($0.name, $0.text) })
        var upward: [String] = []
        for (rank, part) in parts.enumerated() {
            let text = try #require(files["\(part).swift"], "Clauses/\(part).swift should declare the part \(part)")
            for later in ["ClauseContext"] + parts[(rank + 1)...] {
                if try Self.names(later, in: text) { upward.append("Clauses/\(part).swift uses \(later)") }
            }
        }
        #expect(upward.isEmpty, "\(upward.sorted().joined(separator: "\n"))")
    }
}
