import BoltsStyle
import Testing

@Suite("BFTaskCompletionSource")
struct BFTaskCompletionSourceTests {
    @Test func setResult() {
        let source = BFTaskCompletionSource<Int>()
        source.set(result: 3)
        #expect(source.task.result == 3)
    }

    @Test func setError() {
        let source = BFTaskCompletionSource<Int>()
        source.set(error: TestError(code: 4))
        #expect(source.task.faulted)
        #expect(source.task.error as? TestError == TestError(code: 4))
    }

    @Test func cancel() {
        let source = BFTaskCompletionSource<Int>()
        source.cancel()
        #expect(source.task.cancelled)
    }

    @Test func trySetSucceedsOnceThenChangesNothing() {
        let source = BFTaskCompletionSource<Int>()
        #expect(source.trySet(result: 1))
        #expect(!source.trySet(result: 2))
        #expect(!source.trySet(error: TestError()))
        #expect(!source.tryCancel())
        #expect(source.task.result == 1)
    }

    @Test func trySetErrorAndTryCancel() {
        let failing = BFTaskCompletionSource<Int>()
        #expect(failing.trySet(error: TestError(code: 9)))
        #expect(!failing.trySet(result: 1))
        #expect(failing.task.error as? TestError == TestError(code: 9))

        let cancelling = BFTaskCompletionSource<Int>()
        #expect(cancelling.tryCancel())
        #expect(!cancelling.trySet(error: TestError()))
        #expect(cancelling.task.cancelled)
    }

    @Test func setOnACompletedTaskStops() async {
        await #expect(processExitsWith: .failure) {
            let source = BFTaskCompletionSource<Int>()
            source.set(result: 1)
            source.set(result: 2)
        }
        await #expect(processExitsWith: .failure) {
            let source = BFTaskCompletionSource<Int>()
            source.cancel()
            source.set(error: TestError())
        }
        await #expect(processExitsWith: .failure) {
            let source = BFTaskCompletionSource<Int>()
            source.set(error: TestError())
            source.cancel()
        }
    }

    @Test func setOnACompletedTaskSaysTaskAlreadyCompleted() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let source = BFTaskCompletionSource<Int>()
            source.set(result: 1)
            source.set(result: 2)
        }
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("task already completed"))
    }
}
