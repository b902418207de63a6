// The handlers of `map`, `get`, `done`, `then` and `recover` with a thenable (`Transform`, `Consume`, `Follow`) carry
// the value to their queue in raw words (Handoff.swift), and `catch`'s finalizer carries the error: values of every
// size and alignment must arrive intact, and each must be released exactly once, after the block ran.

import Dispatch
import TestSupport
import Testing

@testable import PromiseKitStyle

@Suite("Handoff to the handler's queue")
struct HandoffTests {
    @Test func valuesOfEverySizeCrossToTheQueue() async throws {
        #expect(try await Promise.value(7).map(on: testQueue) { $0 + 1 }.async() == 8)
        let text = "a string longer than fifteen bytes"
        #expect(try await Promise.value(text).map(on: testQueue) { $0.count }.async() == text.count)
        #expect(try await Promise<Any>.value(42 as Any).map(on: testQueue) { $0 as? Int }.async() == 42)
        #expect(try await Promise.value(Wide()).map(on: testQueue) { $0 }.async() == Wide())
        #expect(try await Promise.value(Aligned()).map(on: testQueue) { $0.vector.sum() }.async() == 10)
        #expect(try await Promise.value(Wide()).get(on: testQueue) { _ in }.async() == Wide())
        #expect(try await Promise.value(Wide()).then(on: testQueue) { Promise.value($0.name) }.async() == "wide")
        let seen = Locked<Wide?>(nil)
        try await Promise.value(Wide()).done(on: concurrentQueue) { value in seen.withLock { $0 = value } }.async()
        #expect(seen.withLock { $0 } == Wide())
    }

    @Test func theErrorCrossesToTheCatchQueue() async {
        let caught = Locked<[TestError]>([])
        await withCheckedContinuation { (finished: CheckedContinuation<Void, Never>) in
            Promise<Int>(error: TestError(code: 7))
                .catch(on: testQueue) { error in caught.withLock { $0.append(error as! TestError) } }
                .finally(on: testQueue) { finished.resume() }
        }
        #expect(caught.withLock { $0 } == [TestError(code: 7)])
    }

    @Test func aHopReleasesItsValueOnceAfterTheBlockRan() async throws {
        let freed = Locked(0)
        do {
            func tracked(_ id: Int) -> Tracked { Tracked(id: id) { freed.withLock { $0 += 1 } } }
            let (pending, resolver) = Promise<Tracked>.pending()
            let mapped = pending.map(on: testQueue) { $0.id }
            let done = pending.done(on: testQueue) { _ in }
            let followed = pending.then(on: testQueue) { Promise.value($0.id * 10) }
            let widePair = Promise.value((tracked(2), Wide()))
            let wide = widePair.map(on: testQueue) { $0.0.id }
            let (guarantee, seal) = Guarantee<Tracked>.pending()
            let recovered = Promise<Int>(error: TestError()).recover(on: testQueue) { _ in
                Promise(guarantee.map(on: nil) { $0.id })  // a promise, so that `recover` goes through `Follow`
            }
            resolver.fulfill(tracked(1))
            seal(tracked(3))
            #expect(try await mapped.async() == 1)
            try await done.async()
            #expect(try await followed.async() == 10)
            #expect(try await wide.async() == 2)
            #expect(try await recovered.async() == 3)
            // The blocks seal before they return; a block queued after them on the serial queue runs once they have.
            testQueue.sync {}
            // Each hop's copy of a value is gone; the promises it came from still hold theirs.
            #expect(freed.withLock { $0 } == 0)
            withExtendedLifetime((pending, widePair, guarantee)) {}
        }
        // The three values are freed with their promises: a copy left in a handoff would keep one alive (fewer), one
        // destroyed twice would crash.
        #expect(freed.withLock { $0 } == 3)
    }
}
