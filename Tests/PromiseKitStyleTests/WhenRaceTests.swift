import Dispatch
import Foundation
import PromiseKitStyle
import TestSupport
import Testing

@Suite("when, race, after and hang")
struct WhenRaceTests {
    @Test func whenFulfilledArrayKeepsInputOrder() async throws {
        let (slow, resolveSlow) = Promise<Int>.pending()
        let all: Promise<[Int]> = when(fulfilled: [slow, Promise.value(2), Promise.value(3)])
        resolveSlow.fulfill(1)
        #expect(try await all.async() == [1, 2, 3])
    }

    @Test func whenFulfilledEmptyFulfilsWithEmptyArray() async throws {
        #expect(try await when(fulfilled: [Promise<Int>]()).async() == [])
        let void: Promise<Void> = when(fulfilled: [Promise<Void>]())
        try await void.async()
    }

    @Test func whenFulfilledRejectsWithTheFirstRejection() async throws {
        let events = await PromiseKitLog.record {
            let (never, _) = Promise<Int>.pending()
            await #expect(throws: TestError(code: 4)) {
                try await when(fulfilled: [never, Promise(error: TestError(code: 4))]).async()
            }
            _ = never
        }
        #expect(events == ["pendingPromiseDeallocated"], "`never`, dropped pending")
    }

    @Test func whenFulfilledVoidForms() async throws {
        let variadic: Promise<Void> = when(fulfilled: Promise(), Promise(), Promise())
        try await variadic.async()
        let array: Promise<Void> = when(fulfilled: [Promise(), Promise.value(1).asVoid()])
        try await array.async()
        let failing: Promise<Void> = when(fulfilled: [Promise(), Promise(error: TestError())])
        await #expect(throws: TestError.self) { try await failing.async() }
    }

    @Test func whenFulfilledTuples() async throws {
        let (a, b) = try await when(fulfilled: Promise.value(1), Guarantee.value("b")).async()
        #expect(a == 1 && b == "b")
        let three = try await when(fulfilled: Promise.value(1), Promise.value(2), Promise.value(3)).async()
        #expect(three == (1, 2, 3))
        let four = try await when(fulfilled: Promise.value(1), Promise.value(2), Promise.value(3), Promise.value(4))
            .async()
        #expect(four == (1, 2, 3, 4))
        let five = try await when(
            fulfilled: Promise.value(1), Promise.value(2), Promise.value(3), Promise.value(4), Promise.value(5)
        ).async()
        #expect(five == (1, 2, 3, 4, 5))
        await #expect(throws: TestError.self) {
            try await when(fulfilled: Promise.value(1), Promise<Int>(error: TestError())).async()
        }
    }

    @Test func whenResolvedWaitsForEverything() async {
        let (late, resolver) = Promise<Int>.pending()
        let results = when(resolved: Promise.value(1), Promise<Int>(error: TestError()), late)
        #expect(results.isPending)
        resolver.fulfill(3)
        let all = await results.async()
        #expect(all.map(\.isFulfilled) == [true, false, true])
        #expect(await when(resolved: [Promise<Int>]()).async().isEmpty)
    }

    @Test func whenGuarantees() async {
        await when(Guarantee(), Guarantee()).async()
        #expect(await when(Guarantee.value(1), Guarantee.value(2)).async() == [1, 2])
        await when(guarantees: [Guarantee(), Guarantee()]).async()
        #expect(await when(guarantees: [Guarantee.value(3)]).async() == [3])
        let pair = await when(guarantees: Guarantee.value(1), Guarantee.value("a")).async()
        #expect(pair.0 == 1 && pair.1 == "a")
        let three = await when(guarantees: Guarantee.value(1), Guarantee.value(2), Guarantee.value(3)).async()
        #expect(three == (1, 2, 3))
        let four = await when(
            guarantees: Guarantee.value(1), Guarantee.value(2), Guarantee.value(3), Guarantee.value(4)
        ).async()
        #expect(four == (1, 2, 3, 4))
        let five = await when(
            guarantees: Guarantee.value(1), Guarantee.value(2), Guarantee.value(3), Guarantee.value(4),
            Guarantee.value(5)
        ).async()
        #expect(five == (1, 2, 3, 4, 5))
    }

    @Test func whenConcurrentlyRespectsTheLimitAndOrder() async throws {
        let running = Counter()
        var next = 0
        let generator = AnyIterator<Promise<Int>> {
            guard next < 20 else { return nil }
            next += 1
            let index = next
            running.enter()
            return after(.milliseconds(2)).map(on: concurrentQueue) {
                running.leave()
                return index
            }
        }
        let values = try await when(fulfilled: generator, concurrently: 3).async()
        #expect(values == Array(1...20))
        #expect(running.maximum <= 3)
        #expect(running.maximum >= 1)
    }

    @Test func whenConcurrentlyEmptyAndSynchronous() async throws {
        let empty = AnyIterator<Promise<Int>> { nil }
        #expect(try await when(fulfilled: empty, concurrently: 2).async() == [])
        let already = [Promise.value(1), Promise.value(2), Promise.value(3)].makeIterator()
        #expect(try await when(fulfilled: already, concurrently: 1).async() == [1, 2, 3])
    }

    @Test func whenConcurrentlyRejectsAndStopsPulling() async throws {
        var pulled = 0
        let generator = AnyIterator<Promise<Int>> {
            pulled += 1
            if pulled == 2 { return Promise(error: TestError()) }
            return pulled > 10 ? nil : Promise.value(pulled)
        }
        await #expect(throws: TestError.self) { try await when(fulfilled: generator, concurrently: 1).async() }
        #expect(pulled == 2)
    }

    @Test func whenConcurrentlyBelowOneIsBadInput() async throws {
        for limit in [0, -1] {
            do {
                _ = try await when(fulfilled: [Promise.value(1)].makeIterator(), concurrently: limit).async()
                Issue.record("expected badInput")
            } catch PMKError.badInput {}
            let results = await when(resolved: [Promise.value(1)].makeIterator(), concurrently: limit).async()
            guard results.count == 1, case .rejected(PMKError.badInput) = results[0] else {
                Issue.record("expected [.rejected(badInput)], got \(results)")
                continue
            }
        }
    }

    @Test func whenResolvedConcurrently() async {
        let promises = [Promise.value(1), Promise(error: TestError()), Promise.value(3)]
        let results = await when(resolved: promises.makeIterator(), concurrently: 2).async()
        #expect(results.map(\.isFulfilled) == [true, false, true])
    }

    @Test func raceVariants() async throws {
        let events = try await PromiseKitLog.record {
            let (never, _) = Promise<Int>.pending()
            #expect(try await race(never, Promise.value(2)).async() == 2)
            #expect(try await race([never, Promise.value(3)]).async() == 3)
            await #expect(throws: TestError.self) { try await race([never, Promise(error: TestError())]).async() }
            do {
                _ = try await race([Promise<Int>]()).async()
                Issue.record("expected badInput")
            } catch PMKError.badInput {}
            let (pendingGuarantee, resolve) = Guarantee<Int>.pending()
            #expect(await race(pendingGuarantee, Guarantee.value(4)).async() == 4)
            resolve(0)
            _ = never
        }
        #expect(events == ["pendingPromiseDeallocated"], "`never`, dropped pending")
    }

    @Test func raceFulfilled() async throws {
        let (late, resolver) = Promise<Int>.pending()
        let winner = race(fulfilled: [Promise(error: TestError()), late])
        resolver.fulfill(5)
        #expect(try await winner.async() == 5)
        do {
            _ = try await race(fulfilled: [Promise<Int>(error: TestError()), Promise(error: TestError())]).async()
            Issue.record("expected noWinner")
        } catch PMKError.noWinner {}
        do {
            _ = try await race(fulfilled: [Promise<Int>]()).async()
            Issue.record("expected badInput")
        } catch PMKError.badInput {}
    }

    /// The handlers `race(fulfilled:)` adds to its inputs hold how many there are, not the inputs: an input that never
    /// settles is freed with its last reference. (Holding the array, each held itself through it, forever.) Under the
    /// process-wide lock, because freeing it pending raises a log event that `ConfigurationTests` must not see.
    @Test func raceFulfilledKeepsNoInputAlive() async {
        let events = await PromiseKitLog.record {
            weak var input: Promise<Int>?
            do {
                let (pending, _) = Promise<Int>.pending()
                input = pending
                _ = race(fulfilled: [pending, Promise.value(1)])
            }
            #expect(input == nil)
        }
        #expect(events == ["pendingPromiseDeallocated"], "the dropped pending input")
    }

    /// The same for `when`: its handlers keep what the inputs gave, not the inputs, so inputs that never settle are
    /// freed with their last reference, in every form (found by the differential traces under the leak checker: a
    /// program that drops a `when(resolved:)` over pending promises). The original's closures hold the inputs.
    @Test func whenKeepsNoInputAlive() async {
        let events = await PromiseKitLog.record {
            weak var promise: Promise<Int>?
            weak var guarantee: Guarantee<Int>?
            do {
                let (pending, _) = Promise<Int>.pending()
                let (pendingGuarantee, _) = Guarantee<Int>.pending()
                promise = pending
                guarantee = pendingGuarantee
                _ = when(fulfilled: [pending, Promise.value(1)])
                _ = when(fulfilled: [pending, Promise.value(1)] as [any Thenable])
                _ = when(fulfilled: pending, Promise.value("a"))
                _ = when(fulfilled: pending, pending, pending)
                _ = when(fulfilled: pending, pending, pending, pending)
                _ = when(fulfilled: pending, pending, pending, pending, pending)
                _ = when(resolved: [pending, Promise.value(1)])
                _ = when(guarantees: [pendingGuarantee, Guarantee.value(1)])
                _ = when(guarantees: pendingGuarantee, Guarantee.value("a"))
                _ = when(guarantees: pendingGuarantee, pendingGuarantee, pendingGuarantee)
                _ = when(guarantees: pendingGuarantee, pendingGuarantee, pendingGuarantee, pendingGuarantee)
                _ = when(
                    guarantees: pendingGuarantee, pendingGuarantee, pendingGuarantee, pendingGuarantee, pendingGuarantee
                )
            }
            #expect(promise == nil)
            #expect(guarantee == nil)
        }
        #expect(
            Set(events) == ["pendingPromiseDeallocated", "pendingGuaranteeDeallocated"],
            "the inputs, and the results that wait for them, dropped pending: \(events)")
    }

    /// With the inputs no longer held, `when` still gives every value in input order, in each form.
    @Test func whenGivesTheValuesItKept() async throws {
        #expect(try await when(fulfilled: [Promise.value(1), Promise.value(2)]).async() == [1, 2])
        let mixed = try await when(fulfilled: [Promise.value(1), Guarantee.value("b")] as [any Thenable]).async()
        #expect(mixed[0] as? Int == 1 && mixed[1] as? String == "b")
        let five = try await when(
            fulfilled: Promise.value(1), Promise.value("b"), Promise.value(3.0), Promise.value(4), Promise.value(5)
        ).async()
        #expect(five.0 == 1 && five.1 == "b" && five.2 == 3.0 && five.3 == 4 && five.4 == 5)
        let resolved = await when(resolved: [Promise.value(1), Promise<Int>(error: TestError())]).async()
        #expect(resolved.count == 2 && resolved[0].isFulfilled && !resolved[1].isFulfilled)
        #expect(await when(guarantees: [Guarantee.value(1), Guarantee.value(2)]).async() == [1, 2])
        let pair = await when(guarantees: Guarantee.value(1), Guarantee.value("b")).async()
        #expect(pair.0 == 1 && pair.1 == "b")
    }

    @Test func afterResolvesLater() async {
        let start = DispatchTime.now()
        await after(seconds: 0.02).async()
        await after(.milliseconds(20)).async()
        #expect(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds >= 40_000_000)
    }

    @Test(.offThePool) func hangOffTheMainThreadWaits() throws {
        let (promise, resolver) = Promise<Int>.pending()
        concurrentQueue.asyncAfter(deadline: .now() + 0.02) { resolver.fulfill(9) }
        #expect(try hang(promise) == 9)
        #expect(throws: TestError.self) { try hang(Promise<Int>(error: TestError())) }
    }
}

/// Counts concurrent entries and remembers the maximum.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var current = 0
    private var peak = 0

    func enter() {
        lock.lock()
        current += 1
        peak = max(peak, current)
        lock.unlock()
    }

    func leave() {
        lock.lock()
        current -= 1
        lock.unlock()
    }

    var maximum: Int {
        lock.lock()
        defer { lock.unlock() }
        return peak
    }

    /// How many times `enter` was called, for counters that never `leave`.
    var total: Int {
        lock.lock()
        defer { lock.unlock() }
        return current
    }
}
