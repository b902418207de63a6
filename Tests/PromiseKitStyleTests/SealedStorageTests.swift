import PromiseKitStyle
import Testing

/// Reports its deinit, to check that a box releases its value exactly once.
private final class Tracked: @unchecked Sendable {
    let id: Int
    let onDeinit: () -> Void
    init(id: Int, onDeinit: @escaping () -> Void) {
        self.id = id
        self.onDeinit = onDeinit
    }
    deinit { onDeinit() }
}

/// Larger than the four words a box keeps inline: stored behind a pointer.
private struct Wide: Equatable {
    var a = 1, b = 2, c = 3, d = 4, e = 5, f = 6
    var name = "wide"
}

/// Aligned more strictly than a word: also stored behind a pointer.
private struct Aligned: Equatable {
    var vector = SIMD4<Double>(1, 2, 3, 4)
}

/// A sealed value lives in raw words inside the box (inline) or behind a pointer (too large or over-aligned).
@Suite("Sealed value storage")
struct SealedStorageTests {
    @Test func valuesOfEverySizeRoundTrip() throws {
        #expect(try Promise.value(7).result?.get() == 7)
        #expect(
            try Promise.value("a string longer than fifteen bytes").result?.get()
                == "a string longer than fifteen bytes")
        #expect(try Promise<Any>.value(42 as Any).result?.get() as? Int == 42)
        #expect(try Promise.value(Wide()).result?.get() == Wide())
        #expect(try Promise.value(Aligned()).result?.get() == Aligned())
        #expect(Guarantee.value(Wide()).value == Wide())
        let (pending, resolver) = Promise<Wide>.pending()
        let mapped = pending.map(on: nil) { $0.name + "!" }
        resolver.fulfill(Wide())
        #expect(try mapped.result?.get() == "wide!")
        let (guarantee, seal) = Guarantee<Aligned>.pending()
        let sum = guarantee.map(on: nil) { $0.vector.sum() }
        seal(Aligned())
        #expect(sum.value == 10)
    }

    @Test func aBoxReleasesItsValueOnceWhenFreed() {
        nonisolated(unsafe) var freed = 0
        do {
            let inline = Promise.value(Tracked(id: 1) { freed += 1 })
            let (wide, resolver) = Promise<(Tracked, Wide)>.pending()
            resolver.fulfill((Tracked(id: 2) { freed += 1 }, Wide()))
            let guarantee = Guarantee.value(Tracked(id: 3) { freed += 1 })
            #expect(inline.value?.id == 1)
            #expect(wide.value?.0.id == 2)
            #expect(guarantee.value?.id == 3)
            #expect(freed == 0)
        }
        #expect(freed == 3)
    }
}
