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

/// The article's replay of one program on the minimal promise ("Reading and replaying a failure"), as it shows it.
@Suite struct MyPromiseReplay {
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    // guide:begin my-promise-replay
    @Test func replayOneProgram() throws {
        let program = "p0 = pending; p1 = then p0 - ( -> v1 ) _; fulfil p0 v2"
        let verdict = try Conformance.replay(program, on: MyPromiseAdapter())
        print(verdict)  // MyPromise: does what the model requires
        #expect(verdict.conforms, "\(verdict)")
    }
    // guide:end my-promise-replay

    /// The article shows the test above, and what it prints.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func theArticleShowsIt() throws {
        let code = try #require(
            try SampleRegions.regions(in: "Tests/ConformanceTests/MyPromiseConformanceTests.swift")["my-promise-replay"]
        )
        let article = "Sources/PromiseConformance/PromiseConformance.docc/TestingYourPromise.md"
        #expect(try SampleRegions.swiftBlocks(in: article).contains(code), "the article should show:\n\(code)")
        let verdict = try Conformance.replay(
            "p0 = pending; p1 = then p0 - ( -> v1 ) _; fulfil p0 v2", on: MyPromiseAdapter())
        #expect(verdict.description == "MyPromise: does what the model requires")
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
