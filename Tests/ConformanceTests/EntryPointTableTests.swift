// The article's table of the three styles' entry points is their adapters' `entryPoints`, and the numbers the
// article states about the deep-chain clauses are the code's.
import Foundation
import PromiseStyleAdapters
import TestSupport
import Testing

@testable import PromiseConformance

@Suite struct EntryPointTable {
    static let article = SampleRegions.packageRoot.appendingPathComponent(
        "Sources/PromiseConformance/PromiseConformance.docc/TestingYourPromise.md")

    /// One row of the table: `| style | entry point | handlers | results |`.
    static func rows<P>(_ style: String, _ entryPoints: [EntryPoint<P>]) -> [String] {
        entryPoints.map { entry in
            let handlers = [(HandlerKinds.onFulfilled, "onFulfilled"), (.onRejected, "onRejected")]
                .filter { entry.handlers.contains($0.0) }.map(\.1)
            let results = [
                (ResultKinds.value, "value"), (.throw, "throw"), (.adopt, "adopt"), (.assimilate, "assimilate"),
                (.same, "same"),
            ].filter { entry.results.contains($0.0) }.map(\.1)
            let queue = entry.takesQueue ? " (a queue)" : ""
            return "| \(style) | `\(entry.name)`\(queue) | \(handlers.joined(separator: ", ")) | "
                + "\(results.joined(separator: ", ")) |"
        }
    }

    /// The rows of the three styles, in the order of their adapters.
    static let expected =
        rows("BoltsStyle", BoltsStyleAdapter().entryPoints)
        + rows("PromiseKitStyle", PromiseKitStyleAdapter().entryPoints)
        + rows("FBLStyle", FBLStyleAdapter().entryPoints)

    @Test func theArticlesTableIsTheAdaptersEntryPoints() throws {
        let text = try String(contentsOf: Self.article, encoding: .utf8)
        let header = "| style | entry point | handlers | results |\n|---|---|---|---|\n"
        let start = try #require(text.range(of: header)).upperBound
        let table = text[start...].split(separator: "\n", omittingEmptySubsequences: false)
            .prefix { $0.hasPrefix("|") }.map(String.init)
        #expect(table == Self.expected, "expected:\n\(Self.expected.joined(separator: "\n"))")
    }

    /// The article's example of a recursion reported is what ``StackGrowth`` says of such depths.
    @Test func theArticlesExampleIsWhatTheSuiteSays() throws {
        let text = try String(contentsOf: Self.article, encoding: .utf8).replacingOccurrences(of: "\n", with: " ")
        var growth = StackGrowth()
        growth.record(link: 250, bytes: 400_000)
        growth.record(link: 1_000, bytes: 400_000 + 750 * 1_471)
        let said = try #require(growth.recursion)
        #expect(text.contains(said), "\(said)")
        var flat = StackGrowth()
        flat.record(link: 250, bytes: 90_000)
        flat.record(link: 1_000, bytes: 100_000)
        #expect(flat.recursion == nil, "a trampoline of bounded depth")
    }

    /// The CHANGELOG's counts of the styles' entry points are theirs.
    @Test func theChangelogCountsTheEntryPoints() throws {
        let changelog = try String(
            contentsOf: SampleRegions.packageRoot.appendingPathComponent("CHANGELOG.md"), encoding: .utf8
        ).replacingOccurrences(of: "\n  ", with: " ")
        let counts =
            "(BoltsStyle \(BoltsStyleAdapter().entryPoints.count), PromiseKitStyle "
            + "\(PromiseKitStyleAdapter().entryPoints.count), FBLStyle \(FBLStyleAdapter().entryPoints.count))"
        #expect(changelog.contains(counts), "\(counts)")
    }

    @Test func theArticleStatesTheCodesNumbers() throws {
        let text = try String(contentsOf: Self.article, encoding: .utf8).replacingOccurrences(of: "\n", with: " ")
        for stated in [
            "with a 256 MiB stack", "it fills 8 MiB below the call", "for a chain of 250 links and one of 1,000",
            "at least 64 bytes per link and 64 KiB in all", "built at 4,000 links", "(1,000,000 links after that",
        ] {
            #expect(text.contains(stated), "\(stated)")
        }
        #expect(DeepStackThread.stackSize == 256 << 20 && DeepStackThread.watchedBytes == 8 << 20)
        #expect(ClauseContext.probeLengths == [250, 1_000] && ClauseContext.longChainLength == 4_000)
        #expect(StackGrowth.bytesPerLinkThreshold == 64 && StackGrowth.totalThreshold == 64 << 10)
        #expect(ClauseContext.stressChainLength == 1_000_000)
    }
}
