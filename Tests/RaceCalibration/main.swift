// race-calibration: how often the race clauses catch the flawed promises' races, measured the way a benchmark is, not
// checked by a test. Each run is a fresh run of the flaw's race clause in this process (`Conformance.run(_:clause:)`,
// with the default race budget, or the stress one with `--stress`), and the tool prints, per flaw and per window of the
// calibrated flaw, in how many of the runs the clause failed, how many rounds it raced, and how long a run took.
// `bash Tests/RaceCalibration/calibrate.sh` runs it on a quiet machine and beside busy loops; Benchmarks/NOTES.md
// ("Race calibration") has the figures.
//
//     race-calibration [--runs N] [--parallel K] [--stress]
//                      [--flaws racyResolution,racyRegistration,splitResolution] [--windows 0,16,256] [--clause ID]
//
// `--windows` runs `splitResolution` once per window (no-op steps between its check and its act), after the flaws;
// `--parallel K` keeps K runs going at the same time in this process, as `swift test` runs test cases side by side;
// `--clause` runs that clause instead of the one that catches each flaw (`--flaws synchronousHandlers --clause
// swift.race` counts the rounds of whole runs, over a flaw that no race clause sees).
import FlawedPromises
import Foundation
import PromiseConformance

/// What to measure, from the command line.
struct Options {
    /// How many runs per flaw and per window (`--runs`).
    var runs = 100
    /// Whether the runs have the stress budget (`--stress`).
    var stress = false
    /// The flaws to measure (`--flaws`): the racy ones by default.
    var flaws: [Flaw] = [.racyResolution, .racyRegistration, .splitResolution]
    /// The windows of `splitResolution` to measure, in no-op steps (`--windows`): none by default.
    var windows: [Int] = []
    /// How many runs go on at the same time in this process, as test cases do under `swift test`.
    var parallel = 1
    /// The clause to run instead of the one that catches the flaw: to count the rounds of whole runs over a flaw no
    /// race clause sees.
    var clause: Clause?

    /// The options `arguments` give (the command line without the tool's name).
    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        while let option = rest.popFirst() {
            switch option {
            case "--stress": stress = true
            case "--runs": runs = try Self.number(rest.popFirst(), option)
            case "--parallel": parallel = max(1, try Self.number(rest.popFirst(), option))
            case "--flaws":
                flaws = try (rest.popFirst() ?? "").split(separator: ",").map { name in
                    guard let flaw = Flaw(rawValue: String(name)) else { throw UsageError("unknown flaw \(name)") }
                    return flaw
                }
            case "--clause":
                let id = rest.popFirst() ?? ""
                guard let named = Clause.named(id) else { throw UsageError("unknown clause \(id)") }
                clause = named
            case "--windows":
                windows = try (rest.popFirst() ?? "").split(separator: ",").map { try Self.number(String($0), option) }
            default: throw UsageError("unknown option \(option)")
            }
        }
    }

    /// `text` as a count, or a usage error naming `option`.
    private static func number(_ text: String?, _ option: String) throws -> Int {
        guard let text, let value = Int(text), value >= 0 else { throw UsageError("\(option) needs a number") }
        return value
    }
}

/// A command line the tool does not understand.
struct UsageError: Error, CustomStringConvertible {
    let description: String
    /// The error `description` says.
    init(_ description: String) { self.description = description }
}

/// The race clause that catches `flaw`.
func raceClause(catching flaw: Flaw) throws -> Clause {
    let id: String
    switch flaw {
    case .racyResolution, .splitResolution: id = "swift.race"
    case .racyRegistration: id = "swift.concurrentRegistration"
    default: throw UsageError("\(flaw) is not a racy flaw")
    }
    guard let clause = Clause.named(id) else { throw UsageError("no clause \(id)") }
    return clause
}

/// A count behind a lock, shared by the copies of a ``Counting`` adapter.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    /// Counts one more.
    func add() {
        lock.lock()
        count += 1
        lock.unlock()
    }

    /// The count so far, and zero from now on.
    func take() -> Int {
        lock.lock()
        defer { lock.unlock() }
        defer { count = 0 }
        return count
    }
}

/// A flawed adapter that counts the promises the clause makes with `pending()` or `fulfilled(_:)`: one per round of
/// `swift.race` and of `swift.concurrentRegistration`, which make every other promise with `then`.
struct Counting: PromiseAdapter {
    /// The adapter it counts for, which does the work.
    let base: FlawedAdapter
    /// The promises made with `pending()` or `fulfilled(_:)` since the count was last taken.
    let made = Counter()

    /// The base adapter's name.
    var name: String { base.name }

    /// The base adapter's, counted.
    func pending() -> (
        promise: FlawedPromise, fulfill: @Sendable (Sentinel) -> Void, reject: @Sendable (any Error) -> Void
    ) {
        made.add()
        return base.pending()
    }

    /// The base adapter's, counted.
    func fulfilled(_ value: Sentinel) -> FlawedPromise {
        made.add()
        return base.fulfilled(value)
    }

    /// The base adapter's.
    func rejected(_ error: any Error) -> FlawedPromise { base.rejected(error) }

    /// The base adapter's.
    func then(
        _ promise: FlawedPromise, on queue: DispatchQueue?,
        onFulfilled: (@Sendable (Sentinel) -> HandlerResult<FlawedPromise>)?,
        onRejected: (@Sendable (any Error) -> HandlerResult<FlawedPromise>)?
    ) -> FlawedPromise {
        base.then(promise, on: queue, onFulfilled: onFulfilled, onRejected: onRejected)
    }
}

/// The median, the 90th percentile and the maximum of `values`, as "median 3, 90th percentile 8, max 20".
func spread(_ values: [Double], _ format: (Double) -> String) -> String {
    guard !values.isEmpty else { return "none" }
    let sorted = values.sorted()
    let median = sorted[(sorted.count - 1) / 2]
    let p90 = sorted[Int((Double(sorted.count - 1) * 0.9).rounded())]
    return "median \(format(median)), 90th percentile \(format(p90)), max \(format(sorted[sorted.count - 1]))"
}

/// Runs the clause that catches `adapter`'s flaw `runs` times and prints what it saw.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
func measure(_ adapter: FlawedAdapter, _ options: Options) async throws {
    let clause = try options.clause ?? raceClause(catching: adapter.flaw)
    /// What one run saw: whether it failed (and how), the rounds it raced, its seconds.
    typealias Run = (failure: String?, rounds: Double, seconds: Double)
    let stress = options.stress
    let runs = await withTaskGroup(of: [Run].self) { group in
        for worker in 0..<options.parallel {
            let share = options.runs / options.parallel + (worker < options.runs % options.parallel ? 1 : 0)
            group.addTask {
                let counting = Counting(base: adapter)
                var runs: [Run] = []
                for _ in 0..<share {
                    let result = await Conformance.run(counting, clause: clause, timeout: .seconds(120), stress: stress)
                    let (whole, atto) = result.duration.components
                    var failure: String?
                    if case .failed(let message) = result.status { failure = message }
                    runs.append((failure, Double(counting.made.take()), Double(whole) + Double(atto) / 1e18))
                }
                return runs
            }
        }
        return await group.reduce(into: []) { $0 += $1 }
    }
    let caughtRounds = runs.filter { $0.failure != nil }.map(\.rounds)
    let missedRounds = runs.filter { $0.failure == nil }.map(\.rounds)
    let seconds = runs.map(\.seconds)
    let firstFailure = runs.lazy.compactMap(\.failure).first
    let count = { (value: Double) in String(Int(value)) }
    print(
        """
        \(adapter.name), \(clause.id): caught in \(caughtRounds.count) of \(options.runs) runs
          rounds raced in a run that caught it (the failing round included): \(spread(caughtRounds, count))
          rounds raced in a run that missed it: \(spread(missedRounds, count))
          seconds per run: \(spread(seconds) { String(format: "%.3f", $0) })
          caught in one round: \(odds(caught: caughtRounds.count, rounds: runs.map(\.rounds).reduce(0, +)))
        """)
    if let firstFailure { print("  the first failure: \(firstFailure.prefix(300))") }
}

/// The odds that one round catches the race, estimated from `caught` runs that each stopped at the round that caught
/// it, over `rounds` rounds raced in all runs (a geometric distribution's estimate): "1 in 4.2 (24%)".
func odds(caught: Int, rounds: Double) -> String {
    guard caught > 0 else { return "none in \(Int(rounds)) rounds" }
    let p = Double(caught) / rounds
    return String(format: p >= 0.1 ? "1 in %.1f (%.0f%%)" : "1 in %.1f (%.2g%%)", 1 / p, p * 100)
}

/// How long one no-op step of ``FlawedPromise/spin(_:)`` takes here, in nanoseconds (the best of five timings).
func nanosecondsPerSpinStep() -> Double {
    let steps = 20_000_000
    var best = Double.infinity
    for _ in 0..<5 {
        let start = DispatchTime.now().uptimeNanoseconds
        FlawedPromise.spin(steps)
        best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / Double(steps))
    }
    return best
}

if #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) {
    do {
        let options = try Options(Array(CommandLine.arguments.dropFirst()))
        var loads = [0.0, 0, 0]
        _ = getloadavg(&loads, 3)
        print(
            """
            race-calibration: \(options.runs) runs each, \(options.parallel) at a time, \
            \(options.stress ? "stress" : "default") race budget, \(ProcessInfo.processInfo.activeProcessorCount) CPUs, load average \(String(format: "%.2f", loads[0]))
            """)
        if !options.windows.isEmpty {
            print("a no-op step of splitResolution's window: \(String(format: "%.2f", nanosecondsPerSpinStep())) ns")
        }
        for flaw in options.flaws { try await measure(FlawedAdapter(flaw: flaw), options) }
        for window in options.windows {
            try await measure(FlawedAdapter(flaw: .splitResolution, window: window), options)
        }
    } catch {
        FileHandle.standardError.write(Data("race-calibration: \(error)\n".utf8))
        exit(2)
    }
} else {
    FileHandle.standardError.write(Data("race-calibration needs macOS 13, iOS 16, tvOS 16 or watchOS 9\n".utf8))
    exit(2)
}
