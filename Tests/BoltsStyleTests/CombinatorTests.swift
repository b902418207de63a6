import BoltsStyle
import Dispatch
import TestSupport
import Testing

@Suite("whenAll, whenAllResult, whenAny")
struct CombinatorTests {
    @Test func whenAllOfNothingSucceeds() {
        #expect(BFTask<Int>.whenAll([]).completed)
        #expect(BFTask<Int>.whenAllResult([]).result == [])
        #expect(BFTask<Int>.whenAny([]).completed)
    }

    @Test func whenAllWaitsForEveryTask() {
        let sources = (0..<3).map { _ in BFTaskCompletionSource<Int>() }
        let all = BFTask.whenAll(sources.map(\.task))
        sources[0].set(result: 0)
        sources[2].set(result: 2)
        #expect(!all.completed)
        sources[1].set(result: 1)
        #expect(all.completed && !all.faulted && !all.cancelled)
    }

    @Test func whenAllVariadic() {
        let all = BFTask.whenAll(BFTask(1), BFTask(2))
        #expect(all.completed && !all.faulted)
        let results = BFTask.whenAllResult(BFTask("a"), BFTask("b"))
        #expect(results.result == ["a", "b"])
        let any = BFTask.whenAny(BFTask(1), BFTaskCompletionSource<Int>().task)
        #expect(any.completed)
    }

    @Test func whenAllCarriesEveryErrorInInputOrder() {
        let sources = (0..<4).map { _ in BFTaskCompletionSource<Int>() }
        let all = BFTask.whenAll(sources.map(\.task))
        sources[3].set(error: TestError(code: 3))
        sources[0].set(result: 0)
        sources[2].set(result: 2)
        sources[1].set(error: TestError(code: 1))
        let aggregate = all.error as? BFAggregateError
        #expect(aggregate?.errors.compactMap { ($0 as? TestError)?.code } == [1, 3])
    }

    @Test func whenAllIsCancelledWhenAnyIsCancelledAndNoneFaulted() {
        let all = BFTask.whenAll([BFTask(1), BFTask<Int>.cancelledTask(), BFTask(3)])
        #expect(all.cancelled)
        let results = BFTask.whenAllResult([BFTask(1), BFTask<Int>.cancelledTask()])
        #expect(results.cancelled)
    }

    @Test(.offThePool) func whenAllResultKeepsInputOrder() {
        let queue = DispatchQueue(label: "results", attributes: .concurrent)
        let tasks = (0..<50).map { index in
            BFTask<Int>.execute(.queue(queue)) { index * 2 }
        }
        let all = BFTask.whenAllResult(tasks)
        all.waitForTest()
        #expect(all.result == (0..<50).map { $0 * 2 })
    }

    @Test func whenAllResultFaultsWithTheAggregate() {
        let results = BFTask.whenAllResult([BFTask(1), BFTask<Int>(error: TestError(code: 2))])
        #expect((results.error as? BFAggregateError)?.errors.count == 1)
    }

    @Test func whenAnyCompletesWithTheFirstWhateverItsOutcome() {
        let first = BFTaskCompletionSource<Int>()
        let second = BFTaskCompletionSource<Int>()
        let any = BFTask.whenAny([first.task, second.task])
        #expect(!any.completed)
        second.set(error: TestError())
        #expect(any.completed && !any.faulted)
        first.set(result: 1)
        #expect(any.completed)

        let cancelledFirst = BFTask.whenAny([BFTask<Int>.cancelledTask(), BFTaskCompletionSource<Int>().task])
        #expect(cancelledFirst.completed && !cancelledFirst.cancelled)
    }

    @Test func aggregateErrorInit() {
        let error = BFAggregateError(errors: [TestError(code: 1), OtherError()])
        #expect(error.errors.count == 2)
    }
}

@Suite("withDelay")
struct DelayTests {
    @Test(.offThePool) func completesAfterTheDelay() {
        let task = BFTask.withDelay(0.01)
        task.waitForTest()
        #expect(task.completed && !task.cancelled && !task.faulted)
        let spelled = BFTask<Void>.withDelay(0)
        spelled.waitForTest()
        #expect(spelled.completed)
    }

    @Test func alreadyCancelledTokenCancelsAtOnce() {
        let source = BFCancellationTokenSource()
        source.cancel()
        let task = BFTask.withDelay(60, cancellationToken: source.token)
        #expect(task.cancelled)
    }

    @Test func cancellingDuringTheDelayCancelsPromptly() {
        let source = BFCancellationTokenSource()
        let task = BFTask.withDelay(600, cancellationToken: source.token)
        #expect(!task.completed)
        source.cancel()
        #expect(task.cancelled)
    }

    @Test(.offThePool) func unlabelledTokenSpelling() {
        let source = BFCancellationTokenSource()
        let task = BFTask.withDelay(0.01, source.token)
        task.waitForTest()
        #expect(task.completed && !task.cancelled)
    }
}
