// Each toy is shown verbatim in its style's DocC article (the guide's copies are GuideSampleTests'), and stays a toy:
// 30 to 60 lines, the mechanism and nothing else.
import TestSupport
import Testing

@Suite struct ToyDocumentation {
    /// A toy's region and the DocC article that shows it.
    struct Shown: Sendable, CustomTestStringConvertible {
        let file: String
        let region: String
        let article: String
        var testDescription: String { region }
    }

    static let toys = [
        Shown(
            file: "Tests/ToyModels/ToyTask.swift", region: "toy-task",
            article: "Sources/BoltsStyle/BoltsStyle.docc/HowBFTaskWorks.md"),
        Shown(
            file: "Tests/ToyModels/QueueBox.swift", region: "queue-box",
            article: "Sources/PromiseKitStyle/PromiseKitStyle.docc/HowTheHandlerQueueWorks.md"),
        Shown(
            file: "Tests/ToyModels/ToyPromise.swift", region: "toy-promise",
            article: "Sources/FBLStyle/FBLStyle.docc/HowObserversAndTheGlobalGroupWork.md"),
    ]

    @Test(arguments: toys)
    func theArticleShowsTheToyVerbatim(_ toy: Shown) throws {
        let code = try #require(try SampleRegions.regions(in: toy.file)[toy.region], "no region \(toy.region)")
        #expect(
            try SampleRegions.swiftBlocks(in: toy.article).contains(code),
            "\(toy.article) shows no Swift block identical to \(toy.file)#\(toy.region)")
    }

    @Test(arguments: toys)
    func theToyFitsOnAScreen(_ toy: Shown) throws {
        let code = try #require(try SampleRegions.regions(in: toy.file)[toy.region], "no region \(toy.region)")
        let lines = code.split(separator: "\n", omittingEmptySubsequences: false).count
        #expect((30...60).contains(lines), "\(toy.file)#\(toy.region) has \(lines) lines")
    }
}
