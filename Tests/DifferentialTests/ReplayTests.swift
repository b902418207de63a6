import BoltsTraces
import DifferentialCore
import FBLTraces
import Foundation
import PromiseKitTraces
import TestSupport
import Testing

/// The folder of the golden traces, recorded on the originals (docs/differential-traces.md).
let goldenFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

/// Whether the process runs under a sanitizer, which slows every program many times over.
let isSanitized = TestEnvironment.isThreadSanitized || TestEnvironment.isAddressSanitized

/// How many recorded programs a run replays: 2,000; 300 under a sanitizer (CI runs the suite under both); every
/// recorded one with `PROMISES_STRESS=1`.
func replayCount(recorded: Int) -> Int {
    TestEnvironment.isStress ? recorded : min(recorded, isSanitized ? 300 : 2000)
}

/// The golden traces of `I`'s original that a run replays (the first `replayCount` of them).
func goldenTraces<I: TraceInterpreter>(_ interpreter: I.Type) throws -> [GoldenTrace] {
    let file = goldenFolder.appendingPathComponent(I.goldenFileName)
    let recorded = try GoldenFile.count(file)
    #expect(recorded >= 2000, "\(I.goldenFileName) holds \(recorded) programs")
    return try GoldenFile.read(file, of: I.self, first: replayCount(recorded: recorded)).traces
}

/// Replays the golden traces of `interpreter`'s original against our style and fails on every program whose trace
/// differs where the original defines it and no declared divergence covers it.
func replay<I: TraceInterpreter>(_ interpreter: I.Type, declared: [DeclaredDivergence]) throws {
    let golden = try goldenTraces(I.self)
    var seen: Set<String> = []
    for trace in golden {
        let comparison = TraceComparison(
            golden: trace, replay: I.run(trace.program), declared: declared, original: I.original)
        #expect(comparison.mismatches.isEmpty, "\(comparison.report)")
        for step in comparison.declaredSeen { seen.insert("\(trace.seed)/\(step)") }
    }
    // A declared divergence that no longer shows is stale: the list must say only what is true.
    for divergence in declared where golden.contains(where: { $0.seed == divergence.seed }) {
        #expect(seen.contains("\(divergence.seed)/\(divergence.step)"), "declared but not seen: \(divergence)")
    }
}

/// Checks that the generator still writes, for each seed, the program the golden file recorded: a golden trace is
/// only valid for the program it was recorded from, so a changed generator means recording again on the original.
func checkGenerator<I: TraceInterpreter>(_ interpreter: I.Type) throws {
    for trace in try goldenTraces(I.self) {
        #expect(I.program(seed: trace.seed) == trace.program, "seed \(trace.seed): re-record the golden file")
    }
}

/// The page that shows the coverage tables.
let differentialPage = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../docs/differential-traces.md").standardized

/// Checks that seeds 1...2000 use every step kind at least 100 times, and that docs/differential-traces.md shows
/// the coverage table as the generator prints it.
func checkCoverage<I: TraceInterpreter>(_ interpreter: I.Type, kinds: Int) throws {
    let coverage = Coverage(I.self, seeds: 1...2000)
    let table = coverage.table(title: I.original)
    #expect(coverage.counts.count == kinds, "\(table)")
    for (kind, count) in coverage.counts {
        #expect(count >= 100, "\(kind): \(count) steps in 2,000 programs")
    }
    let page = try String(contentsOf: differentialPage, encoding: .utf8)
    #expect(page.contains(table + "\n"), "docs/differential-traces.md: the table of `coverage`:\n\(table)")
}

@Suite(.offThePool)
struct PromiseKitReplayTests {
    /// The PromiseKit programs, replayed on PromiseKitStyle. PromiseKit's `conf` is process-wide and the interpreter
    /// sets its queues for each program, so the replay holds the package's process-wide test lock.
    @Test func everyProgramReplaysAsPromiseKitRecordedIt() async throws {
        try await ProcessWideTestLock.withLock {
            try replay(PKInterpreter.self, declared: DeclaredDivergences.promiseKit)
        }
    }

    @Test func theGeneratorStillWritesTheRecordedPrograms() throws {
        try checkGenerator(PKInterpreter.self)
    }

    @Test(.disabled(if: isSanitized, "counting 2,000 programs' steps is plain computation; the plain run checks it"))
    func everyStepKindIsUsedAtLeast100Times() throws {
        try checkCoverage(PKInterpreter.self, kinds: 40)
    }
}

@Suite(.offThePool)
struct BoltsReplayTests {
    /// The Bolts-Swift programs, replayed on BoltsStyle.
    @Test func everyProgramReplaysAsBoltsSwiftRecordedIt() throws {
        try replay(BoltsInterpreter.self, declared: DeclaredDivergences.bolts)
    }

    @Test func theGeneratorStillWritesTheRecordedPrograms() throws {
        try checkGenerator(BoltsInterpreter.self)
    }

    @Test(.disabled(if: isSanitized, "counting 2,000 programs' steps is plain computation; the plain run checks it"))
    func everyStepKindIsUsedAtLeast100Times() throws {
        try checkCoverage(BoltsInterpreter.self, kinds: 57)
    }

    /// The pages that count the programs at the declared step give the list's count: the list is what the stress run
    /// checks over all 2,500 programs, and a page is not to lag behind it.
    @Test func thePagesStateTheDeclaredCount() throws {
        let declared = DeclaredDivergences.bolts.count
        let recorded = try GoldenFile.count(goldenFolder.appendingPathComponent(BoltsInterpreter.goldenFileName))
        let root = goldenFolder.appendingPathComponent("../../..").standardized
        // As the pages write numbers: 2,413.
        let grouped = { (count: Int) in
            count < 1000 ? "\(count)" : "\(count / 1000)," + "\(count % 1000 + 1000)".dropFirst()
        }
        let statements = [
            "docs/differential-traces.md":
                "\(grouped(recorded - declared)) replay as recorded; the other \(declared) differ",
            "docs/original-test-suites.md": "levels, \(declared) programs)",
            "Sources/BoltsStyle/BoltsStyle.docc/BoltsStyle.md":
                "declare (\(declared) of the \(grouped(recorded)) programs reach it)",
        ]
        for (path, statement) in statements {
            let page = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
            #expect(page.contains(statement), "\(path): \(statement)")
        }
    }
}

@Suite(.offThePool)
struct FBLReplayTests {
    /// The Google Promises programs, recorded on its Objective-C core (FBLPromise) and replayed on FBLStyle.
    @Test func everyProgramReplaysAsGooglePromisesRecordedIt() throws {
        try replay(FBLInterpreter.self, declared: DeclaredDivergences.googlePromises)
    }

    @Test func theGeneratorStillWritesTheRecordedPrograms() throws {
        try checkGenerator(FBLInterpreter.self)
    }

    @Test(.disabled(if: isSanitized, "counting 2,000 programs' steps is plain computation; the plain run checks it"))
    func everyStepKindIsUsedAtLeast100Times() throws {
        try checkCoverage(FBLInterpreter.self, kinds: 23)
    }
}
