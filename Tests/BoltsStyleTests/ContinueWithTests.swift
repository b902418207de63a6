import BoltsStyle
import Dispatch
import TestSupport
import Testing

@Suite("continueWith and continueWithTask")
struct ContinueWithTests {
    @Test func runsForEveryOutcome() {
        let success = BFTask(1).continueWith(.immediate) { task in task.result! + 1 }
        #expect(success.result == 2)
        let failure = BFTask<Int>(error: TestError(code: 3)).continueWith(.immediate) { task in
            (task.error as? TestError)?.code ?? -1
        }
        #expect(failure.result == 3)
        let cancelled = BFTask<Int>.cancelledTask().continueWith(.immediate) { task in task.cancelled }
        #expect(cancelled.result == true)
    }

    @Test func runsWhenAPendingTaskCompletes() {
        let source = BFTaskCompletionSource<String>()
        let derived = source.task.continueWith { $0.result!.uppercased() }
        #expect(!derived.completed)
        source.set(result: "hi")
        #expect(derived.result == "HI")
    }

    @Test func throwingFaultsTheDerivedTask() {
        let derived = BFTask(1).continueWith(.immediate) { _ -> Int in throw TestError(code: 5) }
        #expect(derived.error as? TestError == TestError(code: 5))
    }

    @Test func throwingCancelledErrorCancelsTheDerivedTask() {
        let derived = BFTask(1).continueWith(.immediate) { _ -> Int in throw BFCancelledError() }
        #expect(derived.cancelled)
    }

    @Test func continuationsRunInTheOrderTheyWereAdded() {
        let source = BFTaskCompletionSource<Int>()
        let log = EventLog()
        for index in 0..<5 {
            source.task.continueWith(.immediate) { _ in log.append("\(index)") }
        }
        source.set(result: 0)
        #expect(log.events == ["0", "1", "2", "3", "4"])
    }

    @Test func continueWithTaskFollowsAPendingTask() {
        let outer = BFTaskCompletionSource<Int>()
        let inner = BFTaskCompletionSource<String>()
        let derived = outer.task.continueWithTask { _ in inner.task }
        outer.set(result: 1)
        #expect(!derived.completed)
        inner.set(result: "inner")
        #expect(derived.result == "inner")
    }

    @Test func continueWithTaskFlattensErrorAndCancellation() {
        let failing = BFTask(1).continueWithTask(.immediate) { _ in BFTask<Int>(error: TestError(code: 8)) }
        #expect(failing.error as? TestError == TestError(code: 8))
        let cancelled = BFTask(1).continueWithTask(.immediate) { _ in BFTask<Int>.cancelledTask() }
        #expect(cancelled.cancelled)

        let inner = BFTaskCompletionSource<Int>()
        let laterCancelled = BFTask(1).continueWithTask(.immediate) { _ in inner.task }
        inner.cancel()
        #expect(laterCancelled.cancelled)

        let throwing = BFTask(1).continueWithTask(.immediate) { _ -> BFTask<Int> in throw TestError(code: 9) }
        #expect(throwing.error as? TestError == TestError(code: 9))
        let throwingCancel = BFTask(1).continueWithTask(.immediate) { _ -> BFTask<Int> in throw BFCancelledError() }
        #expect(throwingCancel.cancelled)
    }

    @Test func continueWithTaskRunsForErrorsAndCancellation() {
        let recovered = BFTask<Int>(error: TestError()).continueWithTask(.immediate) { task in
            BFTask(task.faulted ? 10 : 0)
        }
        #expect(recovered.result == 10)
        let fromCancelled = BFTask<Int>.cancelledTask().continueWithTask(.immediate) { task in
            BFTask(task.cancelled ? "was cancelled" : "")
        }
        #expect(fromCancelled.result == "was cancelled")
    }

    @Test(.offThePool) func continuationOnAQueueRunsThere() {
        let queue = DispatchQueue(label: "continuation")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 2)
        let derived = BFTask(1).continueWith(.queue(queue)) { _ in DispatchQueue.getSpecific(key: key) }
        derived.waitForTest()
        #expect(derived.result == 2)
    }

    @Test func manyContinuationsOnOneTaskEachRunOnce() {
        let source = BFTaskCompletionSource<Int>()
        let counter = Counter()
        let derived = (0..<100).map { _ in source.task.continueWith(.immediate) { _ in counter.increment() } }
        source.set(result: 1)
        #expect(counter.value == 100)
        #expect(derived.allSatisfy { $0.completed })
    }
}

@Suite("continueOnSuccessWith")
struct ContinueOnSuccessWithTests {
    @Test func runsOnSuccessWithTheResult() {
        let derived = BFTask(20).continueOnSuccessWith(.immediate) { $0 + 1 }
        #expect(derived.result == 21)
    }

    @Test func skipsAndPassesErrorsAndCancellation() {
        let counter = Counter()
        let failed = BFTask<Int>(error: TestError(code: 1)).continueOnSuccessWith(.immediate) { value -> Int in
            counter.increment()
            return value
        }
        #expect(failed.error as? TestError == TestError(code: 1))
        let cancelled = BFTask<Int>.cancelledTask().continueOnSuccessWith(.immediate) { value -> Int in
            counter.increment()
            return value
        }
        #expect(cancelled.cancelled)
        #expect(counter.value == 0)
    }

    @Test func throwingFaults() {
        let derived = BFTask(1).continueOnSuccessWith(.immediate) { _ -> Int in throw TestError(code: 2) }
        #expect(derived.error as? TestError == TestError(code: 2))
    }

    @Test func taskFormFollowsTheReturnedTask() {
        let inner = BFTaskCompletionSource<String>()
        let derived = BFTask(1).continueOnSuccessWithTask(.immediate) { value in
            inner.task.continueOnSuccessWith(.immediate) { "\(value) \($0)" }
        }
        #expect(!derived.completed)
        inner.set(result: "two")
        #expect(derived.result == "1 two")
        let skipped = BFTask<Int>(error: TestError(code: 3)).continueOnSuccessWithTask(.immediate) { BFTask($0) }
        #expect(skipped.error as? TestError == TestError(code: 3))
        let cancelled = BFTask<Int>.cancelledTask().continueOnSuccessWithTask(.immediate) { BFTask($0) }
        #expect(cancelled.cancelled)
    }
}

@Suite("continueOnErrorWith")
struct ContinueOnErrorWithTests {
    @Test func recoversFromAnError() {
        let derived = BFTask<Int>(error: TestError(code: 4)).continueOnErrorWith(.immediate) { error in
            (error as? TestError)?.code ?? 0
        }
        #expect(derived.result == 4)
    }

    @Test func passesResultsAndCancellationThrough() {
        let counter = Counter()
        let success = BFTask(6).continueOnErrorWith(.immediate) { _ -> Int in
            counter.increment()
            return 0
        }
        #expect(success.result == 6)
        let cancelled = BFTask<Int>.cancelledTask().continueOnErrorWith(.immediate) { _ -> Int in
            counter.increment()
            return 0
        }
        #expect(cancelled.cancelled)
        #expect(counter.value == 0)
    }

    @Test func rethrowingKeepsTheTaskFaulted() {
        let derived = BFTask<Int>(error: TestError(code: 1)).continueOnErrorWith(.immediate) { _ -> Int in
            throw OtherError()
        }
        #expect(derived.error is OtherError)
    }

    @Test func typedFormCatchesOnlyItsType() {
        let caught = BFTask<Int>(error: TestError(code: 5)).continueOnErrorWith(.immediate) { (error: TestError) in
            error.code * 10
        }
        #expect(caught.result == 50)

        let counter = Counter()
        let passed = BFTask<Int>(error: OtherError()).continueOnErrorWith(.immediate) { (error: TestError) -> Int in
            counter.increment()
            return error.code
        }
        #expect(passed.error is OtherError)
        #expect(counter.value == 0)

        // A BFCancelledError stored as an error passes through as an error, not as cancellation.
        let storedCancel = BFTask<Int>(error: BFCancelledError()).continueOnErrorWith(.immediate) { (_: TestError) in 1
        }
        #expect(storedCancel.faulted)
        #expect(storedCancel.error is BFCancelledError)
    }

    @Test func taskFormsFollowTheReturnedTask() {
        let inner = BFTaskCompletionSource<Int>()
        let derived = BFTask<Int>(error: TestError()).continueOnErrorWithTask(.immediate) { _ in inner.task }
        #expect(!derived.completed)
        inner.set(result: 12)
        #expect(derived.result == 12)

        let passed = BFTask(3).continueOnErrorWithTask(.immediate) { _ in BFTask(0) }
        #expect(passed.result == 3)
        let cancelled = BFTask<Int>.cancelledTask().continueOnErrorWithTask(.immediate) { _ in BFTask(0) }
        #expect(cancelled.cancelled)

        let typed = BFTask<Int>(error: TestError(code: 7)).continueOnErrorWithTask(.immediate) { (error: TestError) in
            BFTask(error.code)
        }
        #expect(typed.result == 7)
        let typedPassed = BFTask<Int>(error: OtherError()).continueOnErrorWithTask(.immediate) { (_: TestError) in
            BFTask(0)
        }
        #expect(typedPassed.error is OtherError)
        let typedSuccess = BFTask(8).continueOnErrorWithTask(.immediate) { (_: TestError) in BFTask(0) }
        #expect(typedSuccess.result == 8)
    }
}
