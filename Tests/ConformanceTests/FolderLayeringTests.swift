// The folders of Sources/PromiseConformance depend one way: each uses only the folders above it in the module
// overview's table ("The source, folder by folder"). Read from the sources: every type declared at the top level of a
// file belongs to its folder, and a file that names a type of a folder below its own breaks the order.
import Foundation
import TestSupport
import Testing

@Suite struct FolderLayering {
    static let module = SampleRegions.packageRoot.appendingPathComponent("Sources/PromiseConformance")

    /// The folders in the overview's order, read from its table.
    static func statedOrder() throws -> [String] {
        let overview = try String(
            contentsOf: module.appendingPathComponent("PromiseConformance.docc/PromiseConformance.md"), encoding: .utf8)
        let section = try #require(overview.components(separatedBy: "### The source, folder by folder").last)
        return section.split(separator: "\n").compactMap { line in
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
                    // The name on its own: not part of a longer one, nor a member type (`ProgramRun.HandlerCall`).
                    // Simple word boundaries: by default `\\b` follows Unicode, for which `Clause.self` is one word.
                    let name = try Regex("(?m)(?:^|[^.A-Za-z0-9_])\(type)\\b").wordBoundaryKind(.simple)
                    if file.text.contains(name) {
                        upward.append("\(order[rank])/\(file.name) uses \(type) (\(order[typeRank]))")
                    }
                }
            }
        }
        #expect(upward.isEmpty, "\(upward.sorted().joined(separator: "\n"))")
    }
}
