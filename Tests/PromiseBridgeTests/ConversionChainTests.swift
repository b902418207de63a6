import BoltsStyle
import Foundation
import PromiseBridge
import TestSupport
import Testing

/// A long line of conversions, each converting the last, settled before or after the line is built or never: each
/// completes (or is freed) on a 512 KiB thread.
///
/// A conversion from BoltsStyle or PromiseKitStyle settles its target from the source's own callback, inline; two
/// styles that hand an outcome to each other alternate between their trampolines, each of which bounds only its own
/// nesting. These lines pin that the two bounds hold together, for every outcome.
@Suite("Conversion chains on a small stack", .offThePool, .serialized)
struct ConversionChainTests {
    /// ``TestEnvironment/smallStackChainLength`` conversions.
    static let length = TestEnvironment.smallStackChainLength

    /// One line: the styles it cycles through, the outcome, and when the first promise settles.
    struct Line: Sendable, CustomTestStringConvertible {
        let cycle: [Style]
        let outcome: Outcome
        /// Settled before the conversions are made, after, or never (the line is dropped).
        let timing: String

        var testDescription: String {
            "\(cycle.map(\.rawValue).joined(separator: " → ")), \(outcome.testDescription), \(timing)"
        }
    }

    static let lines: [Line] = [[Style.bolts, .pmk], [.pmk, .bolts], [.bolts, .pmk, .fbl]].flatMap { cycle in
        [Outcome.value, .error, .cancelled].flatMap { outcome in
            ["settled before", "settled after"].map { Line(cycle: cycle, outcome: outcome, timing: $0) }
        } + [Line(cycle: cycle, outcome: .value, timing: "never settled")]
    }

    @Test(arguments: lines)
    func lineCompletesOnASmallStack(_ line: Line) async {
        guard line.timing == "never settled" else {
            let result = await SmallStackThread.run { Self.run(line) }
            #expect(result == "\(line.outcome.testDescription) 7")
            return
        }
        // A dropped line frees PromiseKitStyle's pending promises, and each reports it through `conf.logHandler`:
        // recorded under the process-wide test lock, so that the events land in no other test's record (a test of
        // ConfigurationTests counted one more event than its own chain raised when it ran beside this one).
        let events = await PromiseKitLog.record {
            let result = await SmallStackThread.run { Self.run(line) }
            #expect(result == "freed")
        }
        #expect(events.allSatisfy { $0 == "pendingPromiseDeallocated" }, "\(events)")
    }

    /// Builds, settles (or not) and reads one line on the calling thread; the end is converted to a `BFTask` to wait.
    static func run(_ line: Line) -> String {
        weak var weakEnd: AnyObject?
        let read: String = {
            let (first, settle) = makePending(line.cycle[0])
            if line.timing == "settled before" { settle(line.outcome, 7, IdentifiedError(7)) }
            var end = first
            for index in 1...length { end = end.converted(to: line.cycle[index % line.cycle.count]) }
            weakEnd = end.object
            if line.timing == "never settled" { return "" }
            if line.timing == "settled after" { settle(line.outcome, 7, IdentifiedError(7)) }
            guard case .bolts(let task) = end.converted(to: .bolts),
                task.waitUntilCompleted(timeout: TestEnvironment.hangGuard)
            else { return "pending" }
            if task.cancelled { return "cancelled 7" }
            if let error = task.error as? IdentifiedError { return "error \(error.id)" }
            return task.result.map { "value \($0)" } ?? "pending"
        }()
        if line.timing == "never settled" { return weakEnd == nil ? "freed" : "still alive" }
        return read
    }
}
