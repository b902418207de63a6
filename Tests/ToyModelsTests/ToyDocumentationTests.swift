// Each toy stays a toy: 30 to 60 lines, the mechanism and nothing else. (ArticleCodeTests checks that the DocC
// articles show each one verbatim.)
import TestSupport
import Testing

@Suite struct ToyDocumentation {
    static let toys = [
        ("Tests/ToyModels/ToyTask.swift", "toy-task"), ("Tests/ToyModels/QueueBox.swift", "queue-box"),
        ("Tests/ToyModels/ToyPromise.swift", "toy-promise"),
    ]

    @Test(arguments: toys)
    func theToyFitsOnAScreen(_ file: String, _ region: String) throws {
        let code = try #require(try SampleRegions.regions(in: file)[region], "no region \(region)")
        let lines = code.split(separator: "\n", omittingEmptySubsequences: false).count
        #expect((30...60).contains(lines), "\(file)#\(region) has \(lines) lines")
    }
}
