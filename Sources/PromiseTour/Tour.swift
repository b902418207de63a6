// The tour: runs each scenario of docs/guide.md in each style, one after the other, and returns (and prints) the
// timeline of every run. Each run gets its own simulated server and timeline; it ends when the scenario's promise has
// settled and every request it started has had its response (late ones included), or after a time limit, so that the
// tour always terminates.

import Dispatch
import Foundation

/// Where scenario 4 runs its UI step.
enum UITarget: Sendable {
    /// The real main queue (`DispatchQueue.main`, `BFExecutor.mainThread`, `MainActor`): someone must serve it.
    case main
    /// A stand-in for the main queue, for a process in which nothing serves it (tests).
    case standIn(DispatchQueue, any Actor)
}

/// A stand-in for the main actor in scenario 4 when nothing serves the main queue.
actor UIStandIn {}

/// What happens in scenarios 7 and 8, and how fast the server answers: the guide's story by default. The tests tell
/// other stories (nobody cancels, a job that never ends, a server that answers at once) to check what the guide says.
struct Story: Sendable {
    /// Scenario 7: the files to upload.
    var files = (1...12).map { "file\($0)" }
    /// Scenario 7: how many uploads may be in flight at once.
    var uploadsAtOnce = 3
    /// Scenario 7: the user taps Cancel right after this step; `nil`: never.
    var cancelUploadsAfter: String? = "→ upload file8"
    /// Scenario 8: the job to poll.
    var job = "export"
    /// Scenario 8: the poll at which the server says the job is done (`Int.max`: never).
    var pollsUntilDone = 4
    /// Scenario 8: the time between the answer of one poll and the start of the next, in seconds.
    var pollInterval = 0.2
    /// Scenario 8: the time after which polling gives up, in seconds.
    var pollLimit = 2.0
    /// Scenario 8: the user taps Cancel right after this step; `nil`: never.
    var cancelPollingAfter: String?
    /// The latency of a request (but the slow fetch of scenario 6), in milliseconds. With 0 the server answers at
    /// once, on the calling thread, as from a cache.
    var latency = 20
    /// Runs on the calling thread as each status request of scenario 8 starts (the tests measure the stack there).
    var onPoll: (@Sendable () -> Void)?

    /// The outcome of scenario 7: how many files were uploaded.
    func summary(uploaded: Int) -> String { "\(uploaded) of \(files.count) uploaded" }
}

/// The styles the tour compares.
public enum TourStyle: String, CaseIterable, Sendable {
    /// `BoltsStyle`: `BFTask` and its continuations.
    case bolts = "BoltsStyle"
    /// `PromiseKitStyle`: `Promise`, `Guarantee`, `then`/`map`/`done`.
    case promiseKit = "PromiseKitStyle"
    /// `FBLStyle`: Google Promises' `Promise`.
    case fbl = "FBLStyle"
    /// Swift concurrency, for contrast.
    case async = "async/await"

    /// The style whose name (or module name) is `name`, ignoring case: `bolts`, `promisekit`, `pmk`, `fbl`,
    /// `google`, `async`.
    public init?(name: String) {
        switch name.lowercased() {
        case "bolts", "boltsstyle", "bftask": self = .bolts
        case "promisekit", "promisekitstyle", "pmk": self = .promiseKit
        case "fbl", "fblstyle", "google", "promises": self = .fbl
        case "async", "await", "async/await", "swift": self = .async
        default: return nil
        }
    }
}

/// What to run, and how.
public struct TourOptions: Sendable {
    /// The scenarios to run, 1 to 8.
    public var scenarios: [Int]
    /// The styles to run each scenario in.
    public var styles: [TourStyle]
    /// Whether the main queue is served while the tour runs (an `async` main, `dispatchMain()`, a run loop). If so,
    /// scenario 4 puts its UI step on the real main queue; otherwise on a stand-in serial queue labelled `ui`.
    public var mainQueueIsServed: Bool
    /// The longest a single run may take before the tour reports it as timed out and moves on, in seconds.
    public var timeLimit: Double

    /// All scenarios in all styles, with the UI step of scenario 4 on a stand-in queue.
    public init(
        scenarios: [Int] = Array(1...8), styles: [TourStyle] = TourStyle.allCases,
        mainQueueIsServed: Bool = false, timeLimit: Double = 10
    ) {
        self.scenarios = scenarios
        self.styles = styles
        self.mainQueueIsServed = mainQueueIsServed
        self.timeLimit = timeLimit
    }
}

/// One scenario run in one style: its outcome and its timeline.
public struct TourRun: Sendable {
    /// The scenario, 1 to 8.
    public let scenario: Int
    /// The style.
    public let style: TourStyle
    /// `result: ...`, `error: ...`, or `timed out`.
    public let outcome: String
    /// Every step, in the order it was recorded.
    public let entries: [TimelineEntry]
}

/// Runs the scenarios of docs/guide.md and prints their timelines.
public enum PromiseTour {
    /// The title of each scenario.
    public static let titles: [Int: String] = [
        1: "two fetches started together, then one step that needs both",
        2: "a chain: query, modify, save, query again, save again",
        3: "delete items one after another, then all at once",
        4: "choosing where each step runs: a background queue, then the main queue",
        5: "cancelling work in flight (Cancel is tapped as the images request starts)",
        6: "errors: retry a flaky fetch, time out a slow one, recover with a fallback",
        7: "a work line: upload 12 files, at most 3 at a time, with progress (Cancel is tapped as file8 starts)",
        8: "polling: ask every 200 ms whether a job is done, give up after 2 s",
    ]

    /// How to read the printed timeline.
    public static let legend = """
        Each run prints: elapsed time since the run started, the thread (main, or T1, T2... in order of first \
        appearance in that run), the dispatch queue, and the step. → a request starts, ← its response arrives \
        (on a network thread), ✕ a request is aborted. A step on the same thread as the response before it ran \
        inline; a step on another queue hopped there.
        """

    /// Runs every selected scenario in every selected style, one run at a time, and passes each printed line to
    /// `output` as soon as its run has finished.
    ///
    /// - Returns: The runs, in the order they ran.
    public static func run(_ options: TourOptions, output: @Sendable (String) -> Void) async -> [TourRun] {
        let ui = UITarget.standIn(DispatchQueue(label: "ui (stand-in for main)"), UIStandIn())
        var runs: [TourRun] = []
        for scenario in options.scenarios {
            output("")
            output("━━ Scenario \(scenario): \(titles[scenario] ?? "?") ━━")
            for style in options.styles {
                let target = scenario == 4 && options.mainQueueIsServed ? UITarget.main : ui
                let run = await run(scenario, in: style, ui: target, timeLimit: options.timeLimit)
                output("")
                output("\(style.rawValue) — \(run.outcome)")
                for entry in run.entries { output("  \(entry)") }
                runs.append(run)
            }
        }
        return runs
    }

    /// Runs one scenario in one style on a fresh simulated server.
    static func run(_ scenario: Int, in style: TourStyle, ui: UITarget, timeLimit: Double) async -> TourRun {
        let backend = Backend(timeline: Timeline(), scenario: scenario, style: style.rawValue)
        return await run(on: backend, in: style, ui: ui, timeLimit: timeLimit)
    }

    /// Runs `backend.scenario` in one style on `backend`, a fresh simulated server (the tests give it a story).
    static func run(on backend: Backend, in style: TourStyle, ui: UITarget, timeLimit: Double) async -> TourRun {
        let scenario = backend.scenario
        backend.note("start")
        let outcome =
            await within(timeLimit) {
                do {
                    return "result: " + (try await runVariant(scenario, style, backend, ui))
                } catch {
                    return "error: \(error)"
                }
            } ?? "timed out after \(timeLimit) s"
        backend.note("end: \(outcome)")
        _ = await within(timeLimit) {
            await backend.idle()
            return ""
        }
        return TourRun(scenario: scenario, style: style, outcome: outcome, entries: backend.timeline.all)
    }

    private static func runVariant(
        _ scenario: Int, _ style: TourStyle, _ backend: Backend, _ ui: UITarget
    ) async throws -> String {
        switch style {
        case .bolts: return try await BoltsTour.run(scenario, BoltsStore(backend: backend), ui: ui)
        case .promiseKit: return try await PromiseKitTour.run(scenario, PromiseKitStore(backend: backend), ui: ui)
        case .fbl: return try await FBLTour.run(scenario, FBLStore(backend: backend), ui: ui)
        case .async: return try await AsyncTour.run(scenario, AsyncStore(backend: backend), ui: ui)
        }
    }

    /// The value of `body`, or `nil` if it takes longer than `seconds` (the body keeps running, unobserved).
    static func within(_ seconds: Double, _ body: @escaping @Sendable () async -> String) async -> String? {
        let pending = Locked<CheckedContinuation<String?, Never>?>(nil)
        return await withCheckedContinuation { continuation in
            pending.set(continuation)
            Task {
                let value = await body()
                pending.take()?.resume(returning: value)
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { pending.take()?.resume(returning: nil) }
        }
    }
}
