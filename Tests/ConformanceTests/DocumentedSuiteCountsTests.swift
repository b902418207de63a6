// The counts the documentation states about the suite (the flawed promises, the clauses the sample adapter leaves not
// applicable, the summary lines) are the code's: each is computed here from the clauses, the adapters' declarations
// and the flaws, and looked for in the document's text, whose line breaks are read as spaces.
import FlawedPromises
import Foundation
import PromiseStyleAdapters
import TestSupport
import Testing

@testable import PromiseConformance

@Suite struct DocumentedSuiteCounts {
    static let article = "Sources/PromiseConformance/PromiseConformance.docc/TestingYourPromise.md"
    static let readme = "README.md"

    /// The document's text with every run of whitespace (line breaks included) read as one space.
    static func text(_ file: String) throws -> String {
        let raw = try String(
            contentsOf: SampleRegions.packageRoot.appendingPathComponent(file), encoding: .utf8)
        return raw.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// A count as the documents spell it: a word up to twenty, digits beyond.
    static func spelled(_ count: Int) -> String {
        let words = [
            "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
            "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty",
        ]
        return count < words.count ? words[count] : "\(count)"
    }

    /// The summary line the matrix prints for `adapter` when every clause ends as it declares: the cells of
    /// `OriginalsConformance.declaredCell`, counted.
    static func declaredSummary(_ adapter: any PromiseAdapter) -> String {
        let cells = Clause.all.map { OriginalsConformance.declaredCell(adapter, $0) }
        let count = { (cell: String) in cells.count { $0 == cell } }
        return "\(adapter.name): \(count("pass")) passed, 0 failed, \(count("deviation")) deviations, "
            + "\(count("n/a")) not applicable"
    }

    /// The README and the article count the broken promises the teeth tests plug in.
    @Test func theBrokenPromisesAreCounted() throws {
        let count = Self.spelled(Flaw.allCases.count)
        #expect(
            try Self.text(Self.readme).contains("the suite's own tests plug in \(count) deliberately broken promises"),
            "\(Self.readme) should say \(count)")
        #expect(
            try Self.text(Self.article).contains("The suite's tests run \(count) deliberately broken promises"),
            "\(Self.article) should say \(count)")
    }

    /// The article's count of the clauses the minimal sample's adapter leaves not applicable, by reason.
    @Test func theSampleAdaptersNotApplicableClausesAreCounted() throws {
        let capabilities = MyPromiseAdapter().capabilities
        let meaningless = Clause.all.count { $0.notMeaningful != nil }
        let unsupported = Clause.all.count { $0.notMeaningful == nil && !$0.applies(to: capabilities) }
        let stated =
            "Every clause passes but \(Self.spelled(meaningless + unsupported)), reported as not applicable: "
            + "\(Self.spelled(unsupported)) need a capability the adapter does not declare"
        #expect(try Self.text(Self.article).contains(stated), "\(Self.article) should say: \(stated)")
        let meaninglessStated = "and \(Self.spelled(meaningless)) have no meaning in typed Swift"
        #expect(
            try Self.text(Self.article).contains(meaninglessStated), "\(Self.article) should say: \(meaninglessStated)")
    }

    /// The README's summary lines below its matrix, and the article's sample of one, are what the styles' adapters
    /// declare (the README's cells are checked against the same declarations by `OriginalsConformance`).
    @Test func theSummaryLinesAreTheDeclaredOnes() throws {
        let readme = try Self.text(Self.readme)
        for adapter in [BoltsStyleAdapter(), PromiseKitStyleAdapter(), FBLStyleAdapter()] as [any PromiseAdapter] {
            let line = Self.declaredSummary(adapter)
            #expect(readme.contains("- \(line)"), "\(Self.readme) should say: - \(line)")
        }
        let sample = Self.declaredSummary(BoltsStyleAdapter())
        #expect(try Self.text(Self.article).contains("(`\(sample)`)"), "\(Self.article) should say: (`\(sample)`)")
    }

    /// The article's line of a Swift Testing run of every clause over the reference promise counts the clauses, and
    /// the known issues of those with no meaning in typed Swift.
    @Test func theKnownIssuesLineCountsTheClauses() throws {
        let meaningless = Clause.all.count { $0.notMeaningful != nil }
        let stated =
            "Test conformance(_:) with \(Clause.all.count) test cases passed after 8.696 seconds with \(meaningless) "
            + "known issues."
        #expect(try Self.text(Self.article).contains(stated), "\(Self.article) should say: \(stated)")
    }

    /// The bounds the article's "A promise that stalls, and one that never stops" states are the code's.
    @Test func theBoundsOnABrokenPromiseAreTheCodes() throws {
        let article = try Self.text(Self.article)
        for stated in [
            "for \(RunStalls.quietLimit) s (`ProgramRun.stallLimitAfterAStall`)",
            "waiting for the handler after \(RunStalls.quietLimit) s in which the implementation called nothing",
            "judge and confirm each program with \(ProgramTrial.shrinkStallLimit) s waits, shrink a failure for "
                + "\(ProgramTrial.stalledShrinkLimit) s at most",
            "stopped at `ProgramRun.eventLimit` (\(StackGrowth.grouped(ProgramRun.eventLimit))) recorded events",
            "the run was stopped at \(StackGrowth.grouped(ProgramRun.eventLimit)) events",
            "keep \(StackGrowth.grouped(recorderKeptEvents)) events at most",
        ] {
            #expect(article.contains(stated), "\(Self.article) should say: \(stated)")
        }
        #expect(RunStalls.quietLimit == ProgramRun.stallLimitAfterAStall)
    }

    /// What the article's section "Stress" says `PROMISES_STRESS=1` changes is the code's: the race budgets, the
    /// handlers per thread of `swift.concurrentRegistration`, and the deep-chain clauses' chain lengths.
    @Test func theStressNumbersAreTheCodes() throws {
        let budget = { (seconds: TimeInterval) in seconds == seconds.rounded() ? "\(Int(seconds))" : "\(seconds)" }
        let stated = [
            "gives each race clause a budget of \(budget(Racing.stressBudget)) s instead of "
                + "\(budget(Racing.defaultBudget)) s",
            "runs `swift.concurrentRegistration` with \(StackGrowth.grouped(ClauseContext.stressRegistrationsPerThread)) "
                + "handlers per thread instead of \(StackGrowth.grouped(ClauseContext.registrationsPerThread))",
            "and `swift.deepChain` with chains of \(StackGrowth.grouped(ClauseContext.stressChainLength)) links instead of "
                + "\(StackGrowth.grouped(ClauseContext.settledChainLength)) (settled) and "
                + "\(StackGrowth.grouped(ClauseContext.droppedChainLength)) (dropped)",
            "follow their first case's chain of \(StackGrowth.grouped(ClauseContext.longChainLength)) links with one of "
                + "\(StackGrowth.grouped(ClauseContext.stressChainLength)), and give each other case a chain of "
                + "\(StackGrowth.grouped(ClauseContext.longChainLength)) links too",
        ]
        let article = try Self.text(Self.article)
        for sentence in stated { #expect(article.contains(sentence), "\(Self.article) should say: \(sentence)") }
        let help = ConformanceCommand.usage.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let helpLine =
            "race for \(budget(Racing.stressBudget)) s per race clause, not "
            + "\(budget(Racing.defaultBudget)) s, and chains of \(StackGrowth.grouped(ClauseContext.stressChainLength))"
        #expect(help.contains(helpLine), "the command's help should say: \(helpLine)")
    }

    /// The article and the command's help count the numbered requirements of Promises/A+ the matrix's rows begin with,
    /// and the article states the generated programs' default count and seed.
    @Test func theRowsAndTheProgramsAreCounted() throws {
        let numbered = Clause.all.count { $0.id.first?.isNumber == true }
        let stated = "the \(numbered) numbered requirements of Promises/A+ 1.1"
        let help = ConformanceCommand.usage.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(try Self.text(Self.article).contains(stated), "\(Self.article) should say: \(stated)")
        #expect(help.contains(stated), "the command's help should say: \(stated)")
        let programs =
            "generated programs: \(GeneratedPrograms.defaultCount) programs per generated clause, seed "
            + "\(GeneratedPrograms.defaultSeed)"
        #expect(try Self.text(Self.article).contains(programs), "\(Self.article) should say: \(programs)")
    }
}
