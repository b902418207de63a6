// The tour, run in-process as `promise-tour` runs it (minus the real main queue, which nothing serves here): every
// scenario in every style appears in its timeline, and it terminates.

import Foundation
import Testing

import struct TestSupport.ChildRun
import struct TestSupport.OffThePool
import enum TestSupport.TestEnvironment
import func TestSupport.aheadOfTheQueue

@testable import PromiseTour

@Suite("promise-tour")
struct TourTests {
    /// Each scenario waits the project's hang guard: the limit is there to stop a hang, and the rest of the test run,
    /// which keeps both cores busy, can stretch a scenario far past the time it takes alone. The tour runs ahead of the
    /// tests waiting to start, as the scenarios' own tests do (``runScenario(on:_:timeLimit:)``).
    @Test func everyScenarioInEveryStyleAppearsAndTheTourTerminates() async {
        let printed = Locked<[String]>([])
        let runs = await aheadOfTheQueue {
            await PromiseTour.run(TourOptions(timeLimit: TestEnvironment.hangGuard)) { line in
                printed.set(printed.get() + [line])
            }
        }
        #expect(runs.count == 8 * TourStyle.allCases.count)
        let lines = printed.get()
        for scenario in 1...8 {
            #expect(lines.contains { $0.hasPrefix("━━ Scenario \(scenario): ") })
            for style in TourStyle.allCases {
                let run = runs.first { $0.scenario == scenario && $0.style == style }
                #expect(run != nil, "scenario \(scenario) in \(style.rawValue) did not run")
                guard let run else { continue }
                #expect(!run.outcome.hasPrefix("timed out"), "scenario \(scenario) in \(style.rawValue)")
                #expect(run.entries.first?.step == "start")
                #expect(run.entries.contains { $0.step == "end: \(run.outcome)" })
                #expect(run.entries.allSatisfy { $0.scenario == scenario && $0.style == style.rawValue })
                #expect(lines.contains("\(style.rawValue) — \(run.outcome)"))
            }
        }
    }

    @Test func filtersSelectScenariosAndStyles() async {
        let runs = await aheadOfTheQueue {
            await PromiseTour.run(
                TourOptions(scenarios: [2], styles: [.fbl, .bolts], timeLimit: TestEnvironment.hangGuard)
            ) { _ in }
        }
        #expect(runs.map(\.scenario) == [2, 2])
        #expect(runs.map(\.style) == [.fbl, .bolts])
    }

    @Test func styleNames() {
        #expect(TourStyle(name: "Bolts") == .bolts)
        #expect(TourStyle(name: "pmk") == .promiseKit)
        #expect(TourStyle(name: "PromiseKitStyle") == .promiseKit)
        #expect(TourStyle(name: "google") == .fbl)
        #expect(TourStyle(name: "async") == .async)
        #expect(TourStyle(name: "rx") == nil)
    }

    @Test func aRunThatNeverEndsIsReportedAndTheTourMovesOn() async {
        let parked = Locked<UnsafeContinuation<Void, Never>?>(nil)
        let outcome = await PromiseTour.within(0.05) {
            await withUnsafeContinuation { parked.set($0) }  // not resumed until `within` has given up on it
            return "unreachable"
        }
        #expect(outcome == nil)
        // Now let the abandoned run end, so that it is freed (the leak checker would report it): once it has parked.
        while true {
            if let continuation = parked.take() {
                continuation.resume()
                break
            }
            await Task.yield()
        }
    }
}

@Suite("The promise-tour executable")
struct TourExecutableTests {
    /// `promise-tour`, built next to the test bundle by `swift test`.
    private var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("promise-tour")
    }

    @Test(.offThePool) func scenario4ServesTheRealMainQueueAndExits() throws {
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            Issue.record("\(executable.path) is missing: build it with `swift build --product promise-tour`")
            return
        }
        let run = try ChildRun(executable, arguments: ["--scenario", "4"])
        let output = run.output
        #expect(run.exitedInTime, "promise-tour did not terminate")
        #expect(run.status == 0, "\(output)")
        for style in TourStyle.allCases {
            #expect(output.contains("\(style.rawValue) — result: REPORT-DATA"), "\(output)")
        }
        // The UI step of every style ran on the real main queue, served by the tour's async main.
        let shows = output.split(separator: "\n").filter { $0.hasSuffix("show REPORT-DATA") }
        #expect(shows.count == TourStyle.allCases.count, "\(output)")
        #expect(shows.allSatisfy { $0.contains("main queue") }, "\(output)")
    }
}
