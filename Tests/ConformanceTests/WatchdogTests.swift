// The watchdog gives up on a clause's thread stuck in the implementation, never on one in the suite's own waits: those
// end by themselves at the case's deadline, so a thread that a busy machine wakes late still reports what it waited
// for. Checked on `CaseProgress` directly, with deadlines long past, so that nothing here depends on timing.
import Dispatch
import Foundation
import TestSupport
import Testing

@testable import PromiseConformance

@Suite struct Watchdog {
    /// A case whose deadline passed long ago (1 ns after boot).
    static func progressPastItsDeadline() -> CaseProgress {
        let progress = CaseProgress(deadline: .now(), events: nil)
        _ = progress.start("a case", deadline: DispatchTime(uptimeNanoseconds: 1))
        return progress
    }

    @Test func aThreadPastItsDeadlineOutsideAnyWaitIsGivenUpOn() {
        let progress = Self.progressPastItsDeadline()
        let state = progress.abandon(after: .nanoseconds(0), message: "hung")
        #expect(state?.current == "a case")
        #expect(state?.results.map(\.outcome) == [.timedOut("hung")])
    }

    @Test func aThreadInTheSuitesWaitIsNotGivenUpOnAndHasTheMarginOnceOut() {
        let progress = Self.progressPastItsDeadline()
        progress.waiting {
            #expect(progress.abandon(after: .nanoseconds(0), message: "hung") == nil)
            progress.waiting {  // nested waits count each
                #expect(progress.abandon(after: .nanoseconds(0), message: "hung") == nil)
            }
            #expect(progress.abandon(after: .nanoseconds(0), message: "hung") == nil)
            let before = DispatchTime.now()
            #expect(progress.earliestAbandon(after: .seconds(60)) >= before + .seconds(60))
        }
        // Out of the wait: the margin counts from when it came out, not from the deadline long past.
        let left = progress.snapshot.leftWait
        #expect(left != nil)
        #expect(progress.earliestAbandon(after: .seconds(60)) == left.map { $0 + .seconds(60) })
        #expect(progress.snapshot.abandoned == false)
        #expect(progress.abandon(after: .nanoseconds(0), message: "hung") != nil)
    }

    @Test func aWaitThatThrowsStillCountsItsEnd() {
        struct Late: Error {}
        let progress = Self.progressPastItsDeadline()
        #expect(throws: Late.self) { try progress.waiting { throw Late() } }
        #expect(progress.snapshot.waits == 0)
        #expect(progress.snapshot.leftWait != nil)
    }

    /// The time limits the article's sections state are the code's.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func theArticleStatesTheCodesLimits() throws {
        let article = try String(
            contentsOf: SampleRegions.packageRoot.appendingPathComponent(
                "Sources/PromiseConformance/PromiseConformance.docc/TestingYourPromise.md"),
            encoding: .utf8)
        func seconds(_ duration: Duration) -> String { "\(duration.components.seconds) s" }
        for stated in [
            "(``Conformance/defaultTimeout``, \(seconds(Conformance.defaultTimeout)), or the `timeout:` parameter;",
            "`promise-conformance --timeout`, \(seconds(ConformanceCommand.defaultTimeout)) by default",
            "time limit (\(seconds(ConformanceCommand.defaultTimeout)) on the command line",
            "``Conformance/watchdogMargin`` (\(seconds(Conformance.watchdogMargin))) more has passed",
            "and \(seconds(Conformance.watchdogMargin)) more if it hangs inside the",
            "``Conformance/cycleDetectionLimit`` (\(seconds(Conformance.cycleDetectionLimit))) after the handler",
            "2.3.1's three cases \(seconds(Conformance.cycleDetectionLimit)) each",
            "``Conformance/defaultGrace`` (\(Conformance.defaultGrace.components.attoseconds / 1_000_000_000_000_000) ms)",
            "wait the grace period (\(Conformance.defaultGrace.components.attoseconds / 1_000_000_000_000_000) ms) per check",
        ] {
            #expect(article.contains(stated), "the article should say: \(stated)")
        }
    }
}
