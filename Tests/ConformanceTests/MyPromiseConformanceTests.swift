// The article's minimal promise (MinimalSample/MyPromise.swift) through the whole suite, as the article's test runs it
// (`expectConformance` over `Clause.all`), with the package's stricter check (ClauseCheck): every clause passes but
// those that need a capability the adapter does not declare, or have no meaning in typed Swift.
import PromiseConformance
import TestSupport
import Testing

@Suite struct MyPromiseConformance {
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test(arguments: Clause.all)
    func conformance(_ clause: Clause) async {
        let result = await ClauseCheck.run(MyPromiseAdapter(), clause)
        #expect(result.status == .passed || result.status.cell == "n/a", "\(result)")
    }
}

/// The sample stays small enough to read in one go: the promise and its adapter, as the article shows them (the
/// regions between their guide markers), comments and blank lines included.
@Suite struct MyPromiseSize {
    @Test(arguments: [
        ("Tests/ConformanceTests/MinimalSample/MyPromise.swift", "my-promise", 90),
        ("Tests/ConformanceTests/MinimalSample/MyPromiseAdapter.swift", "my-promise-adapter", 50),
    ])
    func theSampleStaysSmall(_ file: String, _ region: String, _ limit: Int) throws {
        let code = try #require(try SampleRegions.regions(in: file)[region], "no region \(region)")
        let lines = code.split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(lines <= limit, "\(file)#\(region) has \(lines) lines, more than \(limit)")
    }
}
