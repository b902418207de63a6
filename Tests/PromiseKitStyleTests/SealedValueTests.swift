import PromiseKitStyle
import TestSupport
import Testing

/// A sealed value lives in raw words inside the box (inline) or behind a pointer (too large or over-aligned).
@Suite("Sealed value storage")
struct SealedValueTests {
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
