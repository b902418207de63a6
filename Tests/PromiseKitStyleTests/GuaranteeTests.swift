import Dispatch
import PromiseKitStyle
import TestSupport
import Testing

@Suite("Guarantee")
struct GuaranteeTests {
    @Test func creation() async {
        let value = Guarantee.value(1)
        #expect(value.value == 1 && value.isFulfilled && !value.isPending)
        #expect(Guarantee<Void>.value.isFulfilled)
        #expect(Guarantee().isFulfilled)
        let closure = Guarantee<Int> { seal in seal(2) }
        #expect(closure.value == 2)
        let (pending, resolve) = Guarantee<Int>.pending()
        #expect(pending.isPending && pending.result == nil)
        resolve(3)
        #expect(pending.value == 3)
        #expect(pending.result.map { (try? $0.get()) == 3 } == true)
        #expect(pending.error == nil && !pending.isRejected)
    }

    @Test func chainStaysGuaranteed() async {
        nonisolated(unsafe) var seen: [Int] = []
        let (root, resolve) = Guarantee<Int>.pending()
        let chain: Guarantee<Int> =
            root
            .map(on: testQueue) { $0 + 1 }
            .get(on: testQueue) { seen.append($0) }
            .then(on: testQueue) { Guarantee.value($0 * 2) }
        let done: Guarantee<Void> = chain.done(on: testQueue) { seen.append($0) }
        let void: Guarantee<Void> = chain.asVoid()
        resolve(1)
        await done.async()
        await void.async()
        #expect(seen == [2, 4])
        #expect(await chain.async() == 4)
    }

    @Test func flagsAreAccepted() async {
        let value = await Guarantee.value(1)
            .map(on: concurrentQueue, flags: .barrier) { $0 + 1 }
            .then(on: concurrentQueue, flags: .barrier) { Guarantee.value($0) }
            .get(on: concurrentQueue, flags: .barrier) { _ in }
            .async()
        #expect(value == 2)
        await Guarantee.value(1).done(on: concurrentQueue, flags: .barrier) { _ in }.async()
    }

    @Test func throwingThenOnGuaranteeGivesPromise() async throws {
        let promise: Promise<Int> = Guarantee.value(1).then(on: testQueue) { _ -> Promise<Int> in throw TestError() }
        await #expect(throws: TestError.self) { try await promise.async() }
        let mapped: Promise<Int> = Guarantee.value(1).map(on: testQueue) { (value: Int) throws -> Int in value }
        #expect(try await mapped.async() == 1)
    }

    @Test func sequenceHelpers() async {
        let numbers = Guarantee.value([3, 1, 2])
        #expect(await numbers.mapValues(on: testQueue) { $0 * 2 }.async() == [6, 2, 4])
        #expect(await numbers.flatMapValues(on: testQueue) { [$0, $0] }.async() == [3, 3, 1, 1, 2, 2])
        #expect(await Guarantee.value(["1", "a", "2"]).compactMapValues(on: testQueue) { Int($0) }.async() == [1, 2])
        #expect(await numbers.thenMap(on: testQueue) { Guarantee.value($0 + 1) }.async() == [4, 2, 3])
        #expect(await numbers.thenFlatMap(on: testQueue) { Guarantee.value([$0, 0]) }.async() == [3, 0, 1, 0, 2, 0])
        #expect(await numbers.filterValues(on: testQueue) { $0 > 1 }.async() == [3, 2])
        #expect(await numbers.sortedValues(on: testQueue).async() == [1, 2, 3])
        #expect(await numbers.sortedValues(on: testQueue) { $0 > $1 }.async() == [3, 2, 1])
    }

    @Test(.offThePool) func waitBlocksUntilResolved() {
        let (guarantee, resolve) = Guarantee<Int>.pending()
        concurrentQueue.asyncAfter(deadline: .now() + 0.05) { resolve(5) }
        #expect(guarantee.wait() == 5)
        #expect(Guarantee.value(6).wait() == 6)
    }
}

@Suite("Sequence helpers on promises")
struct SequenceTests {
    @Test func mapFlatMapCompactMapFilter() async throws {
        let numbers = Promise.value([3, 1, 2])
        #expect(try await numbers.mapValues(on: testQueue) { $0 * 2 }.async() == [6, 2, 4])
        #expect(try await numbers.flatMapValues(on: testQueue) { [$0, $0] }.async() == [3, 3, 1, 1, 2, 2])
        #expect(try await Promise.value(["1", "a"]).compactMapValues(on: testQueue) { Int($0) }.async() == [1])
        #expect(try await numbers.filterValues(on: testQueue) { $0 != 1 }.async() == [3, 2])
        #expect(try await numbers.sortedValues(on: testQueue).async() == [1, 2, 3])
    }

    @Test func thenMapAndThenFlatMap() async throws {
        let numbers = Promise.value([1, 2, 3])
        #expect(try await numbers.thenMap(on: testQueue) { Promise.value($0 * 10) }.async() == [10, 20, 30])
        #expect(
            try await numbers.thenFlatMap(on: testQueue) { Promise.value([$0, -$0]) }.async() == [1, -1, 2, -2, 3, -3])
        await #expect(throws: TestError.self) {
            try await numbers.thenMap(on: testQueue) { n -> Promise<Int> in
                n == 2 ? Promise(error: TestError()) : .value(n)
            }.async()
        }
        await #expect(throws: TestError.self) {
            try await numbers.mapValues(on: testQueue) { _ -> Int in throw TestError() }.async()
        }
    }

    @Test func firstAndLastValue() async throws {
        let numbers = Promise.value([4, 5, 6])
        #expect(try await numbers.firstValue.async() == 4)
        #expect(try await numbers.lastValue.async() == 6)
        #expect(try await numbers.firstValue(on: testQueue) { $0 > 4 }.async() == 5)
        let empty = Promise.value([Int]())
        for promise in [empty.firstValue, empty.lastValue, numbers.firstValue(on: testQueue) { $0 > 9 }] {
            do {
                _ = try await promise.async()
                Issue.record("expected emptySequence")
            } catch PMKError.emptySequence {}
        }
    }
}
