import BoltsStyle
import Dispatch
import Foundation
import TestSupport
import Testing

@Suite("Cancellation tokens")
struct CancellationTests {
    @Test func sourceCancelsItsToken() {
        let source = BFCancellationTokenSource()
        #expect(!source.isCancellationRequested)
        #expect(!source.token.isCancellationRequested)
        source.cancel()
        #expect(source.isCancellationRequested)
        #expect(source.token.isCancellationRequested)
        source.cancel()  // again: nothing happens
        #expect(source.isCancellationRequested)
    }

    @Test func observersRunOnceOnCancel() {
        let source = BFCancellationTokenSource()
        let counter = Counter()
        source.token.register { counter.increment() }
        source.token.register { counter.increment() }
        #expect(counter.value == 0)
        source.cancel()
        #expect(counter.value == 2)
        source.cancel()
        #expect(counter.value == 2)
    }

    @Test func registeringOnACancelledTokenRunsRightAway() {
        let source = BFCancellationTokenSource()
        source.cancel()
        nonisolated(unsafe) var ran = false
        source.token.register { ran = true }
        #expect(ran)
    }

    @Test func disposedRegistrationDoesNotRun() {
        let source = BFCancellationTokenSource()
        let counter = Counter()
        let registration = source.token.register { counter.increment() }
        registration.dispose()
        registration.dispose()
        source.cancel()
        #expect(counter.value == 0)
    }

    @Test func disposedSourceIsInert() {
        let source = BFCancellationTokenSource()
        let counter = Counter()
        source.token.register { counter.increment() }
        source.dispose()
        source.cancel()
        source.token.register { counter.increment() }
        #expect(counter.value == 0)
        #expect(!source.isCancellationRequested)
        source.dispose()
    }

    @Test(.offThePool) func cancelAfterDelayCancels() {
        let source = BFCancellationTokenSource()
        let cancelled = DispatchSemaphore(value: 0)
        source.token.register { cancelled.signal() }
        source.cancel(after: 0.01)
        #expect(cancelled.wait(timeout: .now() + generousTimeout) == .success)
        #expect(source.isCancellationRequested)
    }

    @Test func cancelAfterZeroCancelsNow() {
        let source = BFCancellationTokenSource()
        source.cancel(after: 0)
        #expect(source.isCancellationRequested)
    }

    @Test(.offThePool) func cancelAfterNegativeStopsTheScheduledCancel() {
        let source = BFCancellationTokenSource()
        source.cancel(after: 0.05)
        source.cancel(after: -1)
        // The stopped cancel would have fired long before this later, rescheduled one.
        let cancelled = DispatchSemaphore(value: 0)
        let probe = BFCancellationTokenSource()
        probe.token.register { cancelled.signal() }
        probe.cancel(after: 0.2)
        #expect(cancelled.wait(timeout: .now() + generousTimeout) == .success)
        #expect(!source.isCancellationRequested)
    }

    @Test func continuationWithACancelledTokenDoesNotRun() {
        let source = BFCancellationTokenSource()
        source.cancel()
        let counter = Counter()
        let derived = BFTask(1).continueWith(.immediate, cancellationToken: source.token) { _ in counter.increment() }
        #expect(derived.cancelled)
        #expect(counter.value == 0)
        let onSuccess = BFTask(1).continueOnSuccessWith(cancellationToken: source.token) { counter.increment() + $0 }
        #expect(onSuccess.cancelled)
        let onError = BFTask<Int>(error: TestError()).continueOnErrorWith(cancellationToken: source.token) { _ in 0 }
        #expect(onError.cancelled)
        #expect(counter.value == 0)
    }

    @Test func tokenCancelledWhileParentPendingCancelsWhenParentCompletes() {
        let tokenSource = BFCancellationTokenSource()
        let parent = BFTaskCompletionSource<Int>()
        let counter = Counter()
        let derived = parent.task.continueWith(cancellationToken: tokenSource.token) { _ in counter.increment() }
        tokenSource.cancel()
        parent.set(result: 1)
        #expect(derived.cancelled)
        #expect(counter.value == 0)
    }

    @Test(.offThePool) func tokenCancelledBeforeAQueuedContinuationRunsSkipsIt() {
        let queue = DispatchQueue(label: "blocked")
        let gate = DispatchSemaphore(value: 0)
        queue.async { gate.wait() }
        let tokenSource = BFCancellationTokenSource()
        let counter = Counter()
        let derived = BFTask(1).continueWith(.queue(queue), cancellationToken: tokenSource.token) { _ in
            counter.increment()
        }
        tokenSource.cancel()
        gate.signal()
        derived.waitForTest()
        #expect(derived.cancelled)
        #expect(counter.value == 0)
    }

    @Test func tokenCancelledDuringTheContinuationCancelsTheResult() {
        let tokenSource = BFCancellationTokenSource()
        let derived = BFTask(1).continueWith(.immediate, cancellationToken: tokenSource.token) { task -> Int in
            tokenSource.cancel()
            return task.result!
        }
        #expect(derived.cancelled)
    }

    @Test func tokenCancelledWhileTheReturnedTaskIsPendingCancelsTheDerivedTask() {
        let tokenSource = BFCancellationTokenSource()
        let inner = BFTaskCompletionSource<Int>()
        let derived = BFTask(1).continueWithTask(.immediate, cancellationToken: tokenSource.token) { _ in inner.task }
        #expect(!derived.completed)
        tokenSource.cancel()
        #expect(derived.cancelled)
        inner.set(result: 5)
        #expect(derived.cancelled)

        let other = BFCancellationTokenSource()
        let onSuccess = BFTask(1).continueOnSuccessWithTask(cancellationToken: other.token) { _ in
            BFTaskCompletionSource<Int>().task
        }
        other.cancel()
        #expect(onSuccess.cancelled)
        let onErrorSource = BFCancellationTokenSource()
        let onError = BFTask<Int>(error: TestError()).continueOnErrorWithTask(cancellationToken: onErrorSource.token) {
            _ in BFTaskCompletionSource<Int>().task
        }
        onErrorSource.cancel()
        #expect(onError.cancelled)
    }

    @Test func tokenNotCancelledLetsTheReturnedTaskThrough() {
        let tokenSource = BFCancellationTokenSource()
        let inner = BFTaskCompletionSource<Int>()
        let derived = BFTask(1).continueWithTask(.immediate, cancellationToken: tokenSource.token) { _ in inner.task }
        inner.set(result: 5)
        #expect(derived.result == 5)
        tokenSource.cancel()
        #expect(derived.result == 5)
    }

    @Test func cancelledErrorIsEquatable() {
        #expect(BFCancelledError() == BFCancelledError())
    }
}
