import BoltsStyle
import Dispatch
import FBLStyle
import Foundation
import PromiseBridge
import PromiseKitStyle
import TestSupport
import Testing

@Suite("Cancellation across styles and Swift tasks", timeLimit(minutes: TestEnvironment.hangGuardMinutes))
struct CrossStyleCancellationTests {
    // MARK: BoltsStyle: cancellation through a token

    @Test func tokenCancelledBeforeCancelsTheTaskWithoutRunningTheOperation() async {
        let source = BFCancellationTokenSource()
        source.cancel()
        let ran = Flag()
        let task = BFTask<Int>(cancellationToken: source.token) {
            ran.set()
            return 1
        }
        #expect(task.cancelled)
        await #expect(throws: BFCancelledError.self) { try await task.async() }
        #expect(!ran.isSet)
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // Task.sleep(for:)
    @Test func tokenCancelledLaterCancelsTheOperation() async {
        let source = BFCancellationTokenSource()
        let started = Gate()
        let task = BFTask<Int>(priority: .medium, cancellationToken: source.token) {
            started.open()
            try await Task.sleep(for: .seconds(3600))
            return 1
        }
        await started.wait()
        DispatchQueue.global().async { source.cancel() }
        await #expect(throws: BFCancelledError.self) { try await task.async() }
        #expect(task.cancelled)
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // Task.sleep(for:)
    @Test func tokenOverloadKeepsValuesErrorsAndAwaitCancellation() async throws {
        let source = BFCancellationTokenSource()
        #expect(try await BFTask<Int>(cancellationToken: source.token) { 3 }.async() == 3)
        #expect(try await BFTask<Int>(cancellationToken: nil) { 4 }.async() == 4)
        let error = IdentifiedError()
        let faulted = BFTask<Int>(cancellationToken: source.token) { throw error }
        let thrown = await #expect(throws: IdentifiedError.self) { try await faulted.async() }
        #expect(thrown === error)
        // Cancelling the awaiting Swift task cancels the operation; the token stays untouched.
        let slow = BFTask<Int>(cancellationToken: source.token) {
            try await Task.sleep(for: .seconds(3600))
            return 5
        }
        let awaiting = Task { try await slow.async() }
        awaiting.cancel()
        await #expect(throws: BFCancelledError.self) { try await awaiting.value }
        #expect(slow.cancelled)
        #expect(!source.isCancellationRequested)
    }

    @Test func cancellingTheSourceOfATaskNotMadeFromAClosureWhenTheAwaitIsCancelled() async {
        // The documented pattern for a task started with a token elsewhere: cancel the source on Swift cancellation.
        let source = BFCancellationTokenSource()
        let completion = BFTaskCompletionSource<Int>()
        source.token.register { completion.tryCancel() }
        let task = completion.task
        let awaiting = Task {
            try await withTaskCancellationHandler {
                try await task.async()
            } onCancel: {
                source.cancel()
            }
        }
        awaiting.cancel()
        await #expect(throws: BFCancelledError.self) { try await awaiting.value }
        #expect(task.cancelled)
    }

    // MARK: Swift cancellation → a style → the others

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // Task.sleep(for:)
    @Test func swiftCancellationReachesEveryStyleThroughConversions() async {
        let task = BFTask<Int> {
            try await Task.sleep(for: .seconds(3600))
            return 1
        }
        let pmk = task.asPMKPromise()
        let fbl = task.asFBLPromise()
        let fblThenPMK = fbl.asPMKPromise()
        let awaiting = Task { try await task.async() }
        awaiting.cancel()
        await #expect(throws: BFCancelledError.self) { try await awaiting.value }
        await #expect(throws: PMKError.self) { try await pmk.async() }
        guard case .rejected(PMKError.cancelled)? = pmk.result else {
            Issue.record("expected PMKError.cancelled")
            return
        }
        await #expect(throws: CancellationError.self) { try await fbl.async() }
        #expect(isCancelled(await AnyPromise.pmk(fblThenPMK).settled()))
    }

    @Test(arguments: Style.failable, Style.failable)
    func styleCancellationAwaitedInsideAnotherStylesOperationStaysACancellation(_ inner: Style, _ outer: Style) async {
        let (cancelled, _) = makeSource(inner, .cancelled, .before, error: IdentifiedError())
        let outerPromise = outer.fromOperation { try await cancelled.async() }
        _ = await outerPromise.settled()
        // Whatever the outer style holds, it is a cancellation; converted back into any style it is that style's own.
        for target in Style.targets {
            let converted = outerPromise.converted(to: target)
            if target != outer {
                #expect(isCancelled(await converted.settled()), "\(inner) inside \(outer) → \(target)")
            }
        }
        switch outerPromise {
        case .bolts(let task): #expect(task.cancelled || task.error?.isCancelled == true)
        case .pmk(let promise): #expect(promise.asBFTask().cancelled)
        case .fbl(let promise): #expect(promise.error?.isCancelled == true)
        case .guarantee: Issue.record("unexpected")
        }
    }

    // MARK: No main queue

    @Test(arguments: Pair.all)
    func conversionsNeverRunOnTheMainThread(_ pair: Pair) async {
        let (source, settle) = makePending(pair.source)
        let target = source.converted(to: pair.target)
        let onMain = Flag()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            switch target {
            case .bolts(let task):
                _ = task.continueWith(.immediate) { _ in
                    if Thread.isMainThread { onMain.set() }
                    continuation.resume()
                }
            case .pmk(let promise):
                promise.pipe { _ in
                    if Thread.isMainThread { onMain.set() }
                    continuation.resume()
                }
            case .fbl(let promise):
                promise.always(on: .global()) { continuation.resume() }
            case .guarantee:
                Issue.record("unexpected")
            }
            DispatchQueue.global().async { settle(.value, 1, IdentifiedError()) }
        }
        #expect(!onMain.isSet)
    }
}
