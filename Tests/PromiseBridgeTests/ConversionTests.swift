import BoltsStyle
import Dispatch
import FBLStyle
import Foundation
import PromiseBridge
import PromiseKitStyle
import TestSupport
import Testing

/// One ordered pair of styles, one outcome, one timing.
struct ConversionCase: Sendable, CustomTestStringConvertible {
    let source: Style
    let target: Style
    let outcome: Outcome
    let timing: Timing

    var testDescription: String {
        "\(source.rawValue) → \(target.rawValue), \(outcome.testDescription), \(timing.testDescription)"
    }

    /// Every ordered pair of distinct styles (a Guarantee only as a source, and only with values).
    static let all: [ConversionCase] = Style.allCases.flatMap { source in
        Style.targets.filter { $0 != source }.flatMap { target in
            let outcomes: [Outcome] = source == .guarantee ? [.value] : [.value, .error, .cancelled]
            return outcomes.flatMap { outcome in
                Timing.allCases.map { ConversionCase(source: source, target: target, outcome: outcome, timing: $0) }
            }
        }
    }
}

@Suite("Conversions: every ordered pair, every outcome", timeLimit(minutes: TestEnvironment.hangGuardMinutes))
struct ConversionTests {
    @Test(arguments: ConversionCase.all)
    func outcomeCrossesUnchanged(_ test: ConversionCase) async {
        let error = IdentifiedError(7)
        let (source, settleLater) = makeSource(test.source, test.outcome, test.timing, value: 42, error: error)
        let target = source.converted(to: test.target)
        #expect(target.style == test.target)
        if test.timing == .before {
            // A settled source is read at once: the conversion is settled when it returns.
            expect(target.observed, is: test.outcome, value: 42, error: error)
        }
        settleLater()
        expect(await target.settled(), is: test.outcome, value: 42, error: error)
    }

    @Test func pendingSourceLeavesItsConversionPending() async {
        for source in Style.allCases {
            for target in Style.targets where target != source {
                let (promise, settle) = makePending(source)
                let converted = promise.converted(to: target)
                #expect(converted.observed == nil, "\(source) → \(target)")
                settle(.value, 1, IdentifiedError())
                _ = await converted.settled()
            }
        }
    }

    @Test func valueTypesAndOptionalsCrossUnchanged() async throws {
        struct Payload: Equatable {
            var name: String
            var scores: [Int]
        }
        let payload = Payload(name: "a", scores: [1, 2, 3])
        #expect(try await BFTask(payload).asPMKPromise().asFBLPromise().asBFTask().async() == payload)
        // An optional value that is nil is a value, not a missing outcome.
        let none: Int? = nil
        let task = BFTask<Int?>(none)
        #expect(try await task.asFBLPromise().async() == .some(nil))
        #expect(try await task.asPMKPromise().async() == .some(nil))
        #expect(try await FBLStyle.Promise<Int?>(none).asBFTask().async() == .some(nil))
        #expect(try await PromiseKitStyle.Promise<Int?>.value(none).asBFTask().async() == .some(nil))
    }

    @Test func valueTypeErrorsCrossUnchanged() async {
        struct Code: Error, Equatable { let code: Int }
        let task = BFTask<Int>(error: Code(code: 3))
        switch task.asPMKPromise().result {
        case .rejected(let error as Code)?: #expect(error == Code(code: 3))
        default: Issue.record("expected Code(3)")
        }
        #expect(task.asFBLPromise().error as? Code == Code(code: 3))
        #expect(FBLStyle.Promise<Int>(Code(code: 4)).asBFTask().error as? Code == Code(code: 4))
    }

    // MARK: Cancellation in each style's own notion

    @Test func everyCancellationErrorOfPromiseKitCountsAsCancellation() async {
        let cancellations: [any Error] = [
            PMKError.cancelled, CancellationError(), URLError(.cancelled), CocoaError(.userCancelled),
            BFCancelledError(), MyCancellable(),
        ]
        for error in cancellations {
            #expect(error.isCancelled, "\(error)")
            let promise = PromiseKitStyle.Promise<Int>(error: error)
            #expect(promise.asBFTask().cancelled, "\(error)")
            #expect(promise.asFBLPromise().error is CancellationError, "\(error)")
        }
    }

    @Test func cancellationErrorsLeavingFBLAndBoltsCountAsCancellation() async {
        let cancellations: [any Error] = [
            CancellationError(), PMKError.cancelled, URLError(.cancelled), BFCancelledError(),
        ]
        for error in cancellations {
            let fbl = FBLStyle.Promise<Int>(error)
            #expect(fbl.asBFTask().cancelled, "\(error)")
            #expect(isCancelled(AnyPromise.pmk(fbl.asPMKPromise()).observed), "\(error)")
            // A Bolts task faulted with a cancellation error counts as cancelled too.
            let faulted = BFTask<Int>(error: error)
            #expect(isCancelled(AnyPromise.pmk(faulted.asPMKPromise()).observed), "\(error)")
            #expect(faulted.asFBLPromise().error is CancellationError, "\(error)")
        }
    }

    @Test func aNonCancellingCancellableErrorIsAnOrdinaryError() {
        let error = MyCancellable(isCancelled: false)
        let task = PromiseKitStyle.Promise<Int>(error: error).asBFTask()
        #expect(task.faulted)
        #expect((task.error as? MyCancellable)?.isCancelled == false)
    }

    @Test func bfCancelledErrorIsACancellableErrorWithTheBridge() {
        let error: any Error = BFCancelledError()
        #expect(error.isCancelled)
        #expect(error is any CancellableError)
        #expect(BFCancelledError().isCancelled)
    }
}

/// A custom `CancellableError`.
struct MyCancellable: CancellableError {
    var isCancelled = true
}

/// Whether a state read with `AnyPromise.observed` is cancelled, in the style's own terms.
func isCancelled<T>(_ observed: Observed<T>?) -> Bool {
    if case .cancelled? = observed { return true }
    return false
}
