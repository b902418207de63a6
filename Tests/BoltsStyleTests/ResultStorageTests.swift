import BoltsStyle
import TestSupport
import Testing

/// The task stores its result as raw words (inline) or behind a pointer (too large or over-aligned).
@Suite("Result storage")
struct ResultStorageTests {
    @Test func resultsOfEverySizeRoundTrip() {
        #expect(BFTask(()).result != nil)
        #expect(BFTask(7).result == 7)
        #expect(BFTask("a string longer than fifteen bytes").result == "a string longer than fifteen bytes")
        #expect(BFTask<Any>(42 as Any).result as? Int == 42)
        #expect(BFTask(Wide()).result == Wide())
        #expect(BFTask(Aligned()).result == Aligned())
        let source = BFTaskCompletionSource<Wide>()
        let derived = source.task.continueOnSuccessWith(.immediate) { wide in wide.name + "!" }
        source.set(result: Wide())
        #expect(derived.result == "wide!")
    }

    @Test func aTaskReleasesItsResultOnceWhenFreed() {
        nonisolated(unsafe) var freed = 0
        do {
            let inline = BFTask(Tracked(id: 1) { freed += 1 })
            let source = BFTaskCompletionSource<(Tracked, Wide)>()
            source.set(result: (Tracked(id: 2) { freed += 1 }, Wide()))
            #expect(inline.result?.id == 1)
            #expect(source.task.result?.0.id == 2)
            #expect(freed == 0)
        }
        #expect(freed == 2)
        do {
            let failed = BFTaskCompletionSource<Tracked>()
            failed.set(error: TestError(code: 1))
            _ = failed.task.continueOnSuccessWith(.immediate) { $0.id }
        }
        #expect(freed == 2)
    }
}
