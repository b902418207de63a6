// What a broken promise can make the suite do is bounded: a program whose promise keeps settling is stopped at the
// run's event limit and reported with its count, and a call that comes after its round ended is counted, not trapped.
import Dispatch
import FlawedPromises
import TestSupport
import Testing

@testable import PromiseConformance

@Suite struct BoundedWork {
    /// A handler that fulfils its own source, over a promise whose every settlement calls its first handlers again:
    /// without a bound, the run records events until its deadline.
    static let loop = "p0 = pending; p1 = then p0 - ( fulfil p0 v2 -> v1 ) _; fulfil p0 v1"

    /// The run stops at the event limit: it records no more than the limit, and the check reports the promise that
    /// kept settling, with its count, first.
    @Test func aPromiseThatKeepsSettlingIsStoppedAtTheEventLimit() throws {
        let program = try Program(parsing: Self.loop)
        let log = ProgramRun(program, on: ErasedAdapter(FlawedAdapter(flaw: .settlesAgain))).run(
            PromisesAPlus.predict(program), stallLimit: ProgramTrial.stallLimit, releaseLimit: ProgramTrial.stallLimit,
            deadline: .now() + TestEnvironment.clauseTimeout.dispatchInterval)
        #expect(log.stopped)
        #expect(log.events == ProgramRun.eventLimit)
        let recorded =
            log.observed.values.map(\.count).reduce(0, +) + log.handlerCalls.values.map(\.count).reduce(0, +)
            + log.settleCalls.values.map(\.count).reduce(0, +) + log.registrations.count + log.made.count
        #expect(recorded <= ProgramRun.eventLimit)
        let first = try #require(ModelComparison.violations(program, log, orderUnqueued: true).first)
        let settled = try #require(log.observed[0]?.count)
        #expect(first.rule == "2.1.2.2")
        #expect(
            first.did == "p0 settled \(StackGrowth.grouped(settled)) times; the run was stopped at "
                + "\(StackGrowth.grouped(ProgramRun.eventLimit)) events (the program's handlers then did nothing more, "
                + "and its later steps were not performed)")
    }

    /// The correct reference runs the same program to its end: one settlement, one handler call.
    @Test func theReferenceRunsTheProgramToItsEnd() throws {
        let program = try Program(parsing: Self.loop)
        let log = ProgramRun(program, on: ErasedAdapter(ReferenceAdapter())).run(
            PromisesAPlus.predict(program), stallLimit: ProgramTrial.stallLimit, releaseLimit: ProgramTrial.stallLimit,
            deadline: .now() + TestEnvironment.clauseTimeout.dispatchInterval)
        #expect(!log.stopped)
        #expect(log.observed[0]?.count == 1 && log.handlerCalls[1]?.count == 1)
        #expect(ModelComparison.violations(program, log, orderUnqueued: true).isEmpty)
    }

    /// The replay says the same, through the public entry point.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func theReplayNamesTheCount() throws {
        let verdict = try Conformance.replay(Self.loop, on: FlawedAdapter(flaw: .settlesAgain))
        #expect(
            verdict.broken.first?.hasPrefix("2.1.2.2: p0 settles once and calls each handler once; p0 settled ") == true
        )
    }

    /// A round asked for after the racing threads stopped (a thenable's `then` called after its case ended) fails at
    /// once and is counted, instead of stopping the process.
    @Test func aRoundAfterStopIsCountedNotTrapped() {
        let threads = RacingThreads(parties: 2)
        let ran = TestSupport.Locked<Int>(0)
        #expect(threads.race(until: .now() + .seconds(10)) { _ in ran.withLock { $0 += 1 } })
        threads.stop()
        #expect(!threads.race(until: .now() + .seconds(10)) { _ in ran.withLock { $0 += 1 } })
        #expect(threads.roundsAfterStop == 1)
        #expect(ran.withLock { $0 } == 2)
    }
}
