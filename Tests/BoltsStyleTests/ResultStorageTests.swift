import BoltsStyle
import Testing

/// Counts live instances, to check that a task releases its result exactly once.
private final class Tracked: @unchecked Sendable {
    let id: Int
    let onDeinit: () -> Void
    init(id: Int, onDeinit: @escaping () -> Void) {
        self.id = id
        self.onDeinit = onDeinit
    }
    deinit { onDeinit() }
}

/// Larger than the four words a task keeps inline: stored behind a pointer.
private struct Wide: Equatable {
    var a = 1, b = 2, c = 3, d = 4, e = 5, f = 6
    var name = "wide"
}

/// A result aligned more strictly than a word: also stored behind a pointer.
private struct Aligned: Equatable {
    var vector = SIMD4<Double>(1, 2, 3, 4)
}

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
