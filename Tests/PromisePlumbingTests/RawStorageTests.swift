import PromisePlumbing
import TestSupport
import Testing

/// The raw words: a value of every size and alignment goes in, comes back, and is destroyed exactly once.
@Suite struct RawStorageTests {
    /// Inline values, one too large for the words and one aligned too strictly round-trip through store and load.
    @Test func valuesOfEverySizeRoundTrip() {
        #expect(RawStorage.holdsInline(Int.self))
        #expect(RawStorage.holdsInline(String.self))
        #expect(!RawStorage.holdsInline(Wide.self))
        #expect(!RawStorage.holdsInline(Aligned.self))
        var words = RawStorage()
        words.store("a string longer than fifteen bytes")
        #expect(words.load(as: String.self) == "a string longer than fifteen bytes")
        #expect(words.take(as: String.self) == "a string longer than fifteen bytes")
        words.store(Wide())
        #expect(words.load(as: Wide.self) == Wide())
        #expect(words.take(as: Wide.self) == Wide())
        words.store(Aligned())
        #expect(words.take(as: Aligned.self) == Aligned())
    }

    /// `destroy` releases the value once, inline or behind a pointer; `take` hands it over without releasing it.
    @Test func destroyReleasesOnceAndTakeHandsOver() {
        nonisolated(unsafe) var freed: [Int] = []
        do {
            var inline = RawStorage()
            inline.store(Tracked(id: 1) { freed.append(1) })
            var outOfLine = RawStorage()
            outOfLine.store((Tracked(id: 2) { freed.append(2) }, Wide()))
            #expect(freed.isEmpty)
            inline.destroy(as: Tracked.self)
            outOfLine.destroy(as: (Tracked, Wide).self)
            #expect(freed == [1, 2])
            var handed = RawStorage()
            handed.store(Tracked(id: 3) { freed.append(3) })
            let taken = handed.take(as: Tracked.self)
            #expect(freed == [1, 2])
            #expect(taken.id == 3)
        }
        #expect(freed == [1, 2, 3])
    }
}
