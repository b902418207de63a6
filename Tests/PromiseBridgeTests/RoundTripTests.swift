import BoltsStyle
import Dispatch
import FBLStyle
import Foundation
import PromiseBridge
import PromiseKitStyle
import TestSupport
import Testing

/// A start style, a path of conversions that ends back in the start style, an outcome and a timing.
struct RoundTrip: Sendable, CustomTestStringConvertible {
    let start: Style
    let path: [Style]
    let outcome: Outcome
    let timing: Timing

    var testDescription: String {
        ([start] + path).map(\.rawValue).joined(separator: " → ") + ", \(outcome.testDescription), "
            + timing.testDescription
    }

    /// Every path of two to four conversions that ends in the start style, so each goes through at least one other
    /// style and the longest visit all three (for example bolts → pmk → fbl → bolts, or pmk → bolts → pmk → fbl → pmk).
    static let all: [RoundTrip] = Style.targets.flatMap { start in
        paths(from: start, maxLength: 4).flatMap { path in
            [Outcome.value, .error, .cancelled].flatMap { outcome in
                Timing.allCases.map { RoundTrip(start: start, path: path, outcome: outcome, timing: $0) }
            }
        }
    }

    private static func paths(from start: Style, maxLength: Int) -> [[Style]] {
        var result: [[Style]] = []
        var frontier: [[Style]] = [[]]
        for _ in 1...maxLength {
            frontier = frontier.flatMap { path in
                Style.targets.filter { $0 != (path.last ?? start) }.map { path + [$0] }
            }
            result += frontier.filter { $0.last == start }
        }
        return result
    }
}

@Suite("Round trips through all three styles and back", timeLimit(minutes: TestEnvironment.hangGuardMinutes))
struct RoundTripTests {
    @Test func pathsCoverEveryStyle() {
        for start in Style.targets {
            #expect(RoundTrip.all.contains { $0.start == start && Set($0.path) == Set(Style.targets) })
        }
    }

    @Test(arguments: RoundTrip.all)
    func roundTripEndsInTheStartState(_ trip: RoundTrip) async {
        let error = IdentifiedError(3)
        let (source, settleLater) = makeSource(trip.start, trip.outcome, trip.timing, value: 5, error: error)
        var current = source
        for style in trip.path {
            current = current.converted(to: style)
        }
        #expect(current.style == trip.start)
        settleLater()
        expect(await current.settled(), is: trip.outcome, value: 5, error: error)
        // Every intermediate step held the outcome in its own style's notion too.
        expect(await source.settled(), is: trip.outcome, value: 5, error: error)
    }

    @Test func guaranteeValueComesBackAsAPromiseValue() async throws {
        let (guarantee, resolve) = Guarantee<Int>.pending()
        let back = guarantee.asBFTask().asFBLPromise().asPMKPromise()
        DispatchQueue.global().async { resolve(8) }
        #expect(try await back.async() == 8)
    }

    @Test func anotherCancellationErrorComesBackAsTheStylesOwn() async {
        // PromiseKitStyle: URLError.cancelled is a cancellation; after a trip through Bolts it is PMKError.cancelled.
        let promise = PromiseKitStyle.Promise<Int>(error: URLError(.cancelled))
        let back = promise.asBFTask().asFBLPromise().asPMKPromise()
        guard case .rejected(PMKError.cancelled)? = back.result else {
            Issue.record("expected PMKError.cancelled, got \(String(describing: back.result))")
            return
        }
        // BoltsStyle: a task faulted with CancellationError comes back cancelled.
        let task = BFTask<Int>(error: CancellationError())
        let again = await AnyPromise.bolts(task.asPMKPromise().asFBLPromise().asBFTask()).settled()
        #expect(isCancelled(again))
        // FBLStyle: a rejection with PMKError.cancelled comes back as CancellationError.
        let fbl = FBLStyle.Promise<Int>(PMKError.cancelled)
        let fblBack = await AnyPromise.fbl(fbl.asPMKPromise().asFBLPromise()).settled()
        #expect(isCancelled(fblBack))
    }
}
