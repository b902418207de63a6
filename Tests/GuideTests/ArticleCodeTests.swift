// The DocC articles that show code kept elsewhere show it verbatim: each toy model in its style's article, and in
// "Testing your own promise" the minimal promise and its adapter (Tests/ConformanceTests/MinimalSample) and the Swift
// Task adapter of Examples/ThirdPartyConformance. The code is a region of its file, between `// guide:begin name` and
// `// guide:end name`, as for docs/guide.md (GuideSampleTests).
import Testing

import enum TestSupport.SampleRegions

@Suite("DocC articles show the tested code")
struct ArticleCodeTests {
    /// A region of a Swift file and the article that shows it.
    struct Shown: Sendable, CustomTestStringConvertible {
        let file: String
        let region: String
        let article: String
        var testDescription: String { "\(region) in \(article.split(separator: "/").last ?? "")" }
    }

    static let shown = [
        Shown(
            file: "Tests/ToyModels/ToyTask.swift", region: "toy-task",
            article: "Sources/BoltsStyle/BoltsStyle.docc/HowBFTaskWorks.md"),
        Shown(
            file: "Tests/ToyModels/QueueBox.swift", region: "queue-box",
            article: "Sources/PromiseKitStyle/PromiseKitStyle.docc/HowTheHandlerQueueWorks.md"),
        Shown(
            file: "Sources/PromiseKitStyle/Core/Hop.swift", region: "hop-call",
            article: "Sources/PromiseKitStyle/PromiseKitStyle.docc/HowTheHandlerQueueWorks.md"),
        Shown(
            file: "Tests/ToyModels/ToyPromise.swift", region: "toy-promise",
            article: "Sources/FBLStyle/FBLStyle.docc/HowObserversAndTheGlobalGroupWork.md"),
        Shown(
            file: "Tests/ConformanceTests/MinimalSample/MyPromise.swift", region: "my-promise",
            article: "Sources/PromiseConformance/PromiseConformance.docc/TestingYourPromise.md"),
        Shown(
            file: "Tests/ConformanceTests/MinimalSample/MyPromiseAdapter.swift", region: "my-promise-adapter",
            article: "Sources/PromiseConformance/PromiseConformance.docc/TestingYourPromise.md"),
        Shown(
            file: "Examples/ThirdPartyConformance/Sources/ThirdPartyAdapters/SwiftTaskAdapter.swift",
            region: "task-adapter",
            article: "Sources/PromiseConformance/PromiseConformance.docc/TestingYourPromise.md"),
    ]

    @Test(arguments: shown)
    func theArticleShowsTheRegionVerbatim(_ shown: Shown) throws {
        let code = try #require(try SampleRegions.regions(in: shown.file)[shown.region], "no region \(shown.region)")
        #expect(
            try SampleRegions.swiftBlocks(in: shown.article).contains(code),
            "\(shown.article) shows no Swift block identical to \(shown.file)#\(shown.region)")
    }
}
