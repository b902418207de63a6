import FlawedPromises
import PromiseConformance
import PromiseKitStyle
import PromiseStyleAdapters
import TestSupport
import Testing

// Mirrors the samples of the article "Testing your own promise type" (TestingYourPromise.md) that run a promise
// beside the three styles through PromiseStyleAdapters, with ReferenceAdapter as "your" promise and two clauses
// instead of all, so the samples keep compiling and doing what the article says. Keep the two in step.

@Suite("Article samples") struct ArticleSampleTests {
    /// Two clauses: one every implementation runs, one BoltsStyle has no capability for.
    static let clauses = ["2.2.2.1", "swift.combinator.race"].compactMap(Clause.named)

    /// PromiseKit reports the suite's deliberate second resolutions through its global `conf.logHandler`: silence it,
    /// under the process-wide test lock, as the article says.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    private func withPromiseKitQuiet<T: Sendable>(_ body: @Sendable () async -> T) async -> T {
        await ProcessWideTestLock.withLock {
            let saved = conf.logHandler
            conf.logHandler = { _ in }
            let result = await body()
            conf.logHandler = saved
            return result
        }
    }

    /// "Beside the three styles": one report per implementation, one matrix.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func matrixBesideTheThreeStyles() async {
        let clauses = Self.clauses
        let matrix = await withPromiseKitQuiet {
            var reports: [ConformanceReport] = []
            for adapter in BuiltInAdapters.all + [ReferenceAdapter()] {
                reports.append(await Conformance.run(adapter, clauses: clauses))
            }
            return Matrix(clauses: clauses, reports: reports).render(.markdown)
        }
        #expect(
            matrix.contains("| clause | title | BoltsStyle | PromiseKitStyle | FBLStyle | Reference |"), "\(matrix)")
        #expect(matrix.contains("| `2.2.2.1` | onFulfilled gets the value | pass | pass | pass | pass |"), "\(matrix)")
        #expect(matrix.contains("| `swift.combinator.race` | race: the first to settle | n/a | pass | pass | pass |"))
    }

    /// The command form: the matrix of the three styles and "your" promise, as `swift run my-conformance` prints it
    /// (here in this process: re-executing the test binary for each clause would not reach the command).
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func commandBesideTheThreeStyles() async {
        let output = Locked<[String]>([])
        let status = await withPromiseKitQuiet {
            await ConformanceCommand.run(
                adapters: BuiltInAdapters.all + [ReferenceAdapter()],
                arguments: ["--clause", "2.2.2.1", "--in-process"],
                output: { line in output.withLock { $0.append(line) } },
                errorOutput: { _ in })
        }
        #expect(status == 0)
        let header = output.withLock { $0 }.joined(separator: "\n").split(separator: "\n").first ?? ""
        #expect(header.hasSuffix("BoltsStyle  PromiseKitStyle  FBLStyle  Reference"), "\(header)")
    }
}
