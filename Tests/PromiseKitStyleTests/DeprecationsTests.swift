import Dispatch
import PromiseKitStyle
import Testing

/// PromiseKit 8's deprecated API (Deprecations.swift), pinned as PromiseKit defines it: each old name behaves as the
/// current function it stands for. The tests call it through `oldAPI`, so no use is a deprecation warning.
@Suite("PromiseKit's deprecated API")
struct DeprecationsTests {
    // MARK: wrap

    @Test func wrapOptionalValueAndError() async throws {
        #expect(try await oldAPI.wrapOptionalValueAndError { $0(1, nil) }.async() == 1)
        await #expect(throws: TestError(code: 2)) {
            try await oldAPI.wrapOptionalValueAndError { $0(1, TestError(code: 2)) }.async()
        }
        let neither = await #expect(throws: PMKError.self) {
            try await oldAPI.wrapOptionalValueAndError { $0(nil, nil) }.async()
        }
        #expect(isInvalidCallingConvention(neither))
    }

    @Test func wrapValueAndError() async throws {
        #expect(try await oldAPI.wrapValueAndError { $0(1, nil) }.async() == 1)
        await #expect(throws: TestError(code: 2)) {
            try await oldAPI.wrapValueAndError { $0(1, TestError(code: 2)) }.async()
        }
    }

    @Test func wrapErrorAndOptionalValue() async throws {
        #expect(try await oldAPI.wrapErrorAndOptionalValue { $0(nil, 1) }.async() == 1)
        await #expect(throws: TestError(code: 2)) {
            try await oldAPI.wrapErrorAndOptionalValue { $0(TestError(code: 2), 1) }.async()
        }
        let neither = await #expect(throws: PMKError.self) {
            try await oldAPI.wrapErrorAndOptionalValue { $0(nil, nil) }.async()
        }
        #expect(isInvalidCallingConvention(neither))
    }

    @Test func wrapError() async throws {
        let fulfilled = oldAPI.wrapError { $0(nil) }
        try await fulfilled.async()
        #expect(fulfilled.isFulfilled)
        await #expect(throws: TestError(code: 2)) { try await oldAPI.wrapError { $0(TestError(code: 2)) }.async() }
    }

    @Test func wrapValue() async throws {
        #expect(try await oldAPI.wrapValue { $0(1) }.async() == 1)
    }

    @Test func wrapRejectsWhenTheBodyThrowsAndWaitsForALaterCall() async throws {
        await #expect(throws: TestError(code: 3)) {
            try await oldAPI.wrapValue { _ in throw TestError(code: 3) }.async()
        }
        // The completion handler escapes: a call on another queue, after `wrap` has returned, resolves the promise.
        let (slow, resolver) = Promise<Int>.pending()
        let later = oldAPI.wrapOptionalValueAndError { completion in
            _ = slow.done(on: testQueue) { completion($0, nil) }
        }
        #expect(later.isPending)
        resolver.fulfill(4)
        #expect(try await later.async() == 4)
    }

    // MARK: Promise.always

    @Test func alwaysRunsOnItsQueueEitherWayAndPassesTheResultOn() async throws {
        let key = DispatchSpecificKey<String>()
        let queue = DispatchQueue(label: "DeprecationsTests.always")
        queue.setSpecific(key: key, value: "always")
        let seen = Seen()
        let fulfilled = oldAPI.always(Promise.value(1), on: queue) {
            seen.append(DispatchQueue.getSpecific(key: key) ?? "elsewhere")
        }
        #expect(try await fulfilled.async() == 1)
        let rejected = oldAPI.always(Promise<Int>(error: TestError(code: 5)), on: queue) {
            seen.append(DispatchQueue.getSpecific(key: key) ?? "elsewhere")
        }
        await #expect(throws: TestError(code: 5)) { try await rejected.async() }
        #expect(seen.values == ["always", "always"])
    }

    // MARK: Sequences

    @Test func filterKeepsThePassingElements() async throws {
        #expect(try await oldAPI.filter(Promise.value([0, 1, 2, 3]), on: testQueue) { $0 < 2 }.async() == [0, 1])
        #expect(try await oldAPI.filter(Guarantee.value([3, 4]), on: nil) { $0 > 3 }.async() == [4])
    }

    @Test func firstIsTheFirstElement() async throws {
        #expect(oldAPI.first(of: Promise.value([1, 2])).value == 1)
        let empty = await #expect(throws: PMKError.self) { try await oldAPI.first(of: Promise.value([Int]())).async() }
        #expect(isEmptySequence(empty))
    }

    @Test func lastIsTheLastElement() async throws {
        #expect(oldAPI.last(of: Promise.value([1, 2])).value == 2)
        let empty = await #expect(throws: PMKError.self) { try await oldAPI.last(of: Promise.value([Int]())).async() }
        #expect(isEmptySequence(empty))
    }

    @Test func sortedIsAscending() async throws {
        #expect(try await oldAPI.sorted(Promise.value([5, 2, 1, 8]), on: testQueue).async() == [1, 2, 5, 8])
    }

    #if PMKFullDeprecations
        @Test func flatMapIsCompactMap() async throws {
            #expect(try await oldAPI.flatMap(Promise.value(1), on: testQueue) { $0 + 1 }.async() == 2)
            let none = await #expect(throws: PMKError.self) {
                try await oldAPI.flatMap(Promise.value(1), on: testQueue) { _ in nil }.async()
            }
            guard case .compactMap? = none else {
                Issue.record("expected PMKError.compactMap, got \(String(describing: none))")
                return
            }
        }

        @Test func sequenceMapIsMapValues() async throws {
            #expect(try await oldAPI.map(Promise.value([1, 2]), on: testQueue) { $0 + 1 }.async() == [2, 3])
        }

        @Test func sequenceFlatMapIsFlatMapValues() async throws {
            #expect(
                try await oldAPI.flatMap(Promise.value([1, 2]), on: testQueue) { [$0 + 1, $0 + 2] }.async() == [
                    2, 3, 3, 4,
                ])
        }
    #endif
}

/// `Guarantee.thenFlatMap` with PromiseKit's signature: the closure may return any thenable.
@Suite("Guarantee.thenFlatMap over any Thenable")
struct GuaranteeThenFlatMapTests {
    @Test func closureReturningAPromise() async {
        let (slow, resolver) = Promise<[Int]>.pending()
        let flattened: Guarantee<[Int]> = Guarantee.value([1, 2, 3]).thenFlatMap(on: testQueue) { n in
            n == 1 ? slow : Promise.value([n, -n])
        }
        resolver.fulfill([1, -1])
        #expect(await flattened.async() == [1, -1, 2, -2, 3, -3])
        let none = Guarantee.value([Int]()).thenFlatMap(on: testQueue) { Promise.value([$0]) }
        #expect(await none.async() == [])
    }

    @Test func closureReturningAGuaranteeStillCompiles() async {
        let numbers = Guarantee.value([1, 2])
        #expect(await numbers.thenFlatMap(on: testQueue) { Guarantee.value([$0, $0]) }.async() == [1, 1, 2, 2])
        #expect(await numbers.thenFlatMap(on: testQueue) { n in .value([n, 0]) }.async() == [1, 0, 2, 0])
    }

    @Test func aRejectionStopsTheProgram() async throws {
        let exit = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let never = Guarantee.value([1]).thenFlatMap(on: nil) { _ in Promise<[Int]>(error: TestError(code: 7)) }
            _ = await never.async()
        }
        let message = String(decoding: exit.standardErrorContent, as: UTF8.self)
        #expect(message.contains("thenFlatMap on a Guarantee: TestError(code: 7)"))
    }
}

private func isInvalidCallingConvention(_ error: PMKError?) -> Bool {
    if case .invalidCallingConvention? = error { true } else { false }
}

private func isEmptySequence(_ error: PMKError?) -> Bool {
    if case .emptySequence? = error { true } else { false }
}

/// Strings appended from the handlers' queue, read after the chain has finished.
private final class Seen: @unchecked Sendable {
    private let lock = DispatchQueue(label: "DeprecationsTests.Seen")
    private var strings: [String] = []
    func append(_ string: String) { lock.sync { strings.append(string) } }
    var values: [String] { lock.sync { strings } }
}

/// PromiseKit's deprecated API, one requirement per old name. The conformance is deprecated; seen as
/// `any CallsDeprecatedAPI`, calling it is not a deprecated use, so the tests build without warnings.
private protocol CallsDeprecatedAPI: Sendable {
    func wrapOptionalValueAndError(_ body: (@escaping PMKCompletion<Int?, Error?>) throws -> Void) -> Promise<Int>
    func wrapValueAndError(_ body: (@escaping PMKCompletion<Int, Error?>) throws -> Void) -> Promise<Int>
    func wrapErrorAndOptionalValue(_ body: (@escaping PMKCompletion<Error?, Int?>) throws -> Void) -> Promise<Int>
    func wrapError(_ body: (@escaping PMKGuaranteedHandler<Error?, Void>) throws -> Void) -> Promise<Void>
    func wrapValue(_ body: (@escaping PMKGuaranteedHandler<Int, Void>) throws -> Void) -> Promise<Int>
    func always(_ promise: Promise<Int>, on: DispatchQueue, execute: @escaping PMKThunk<Void>) -> Promise<Int>
    func filter<P: Thenable>(_ thenable: P, on: DispatchQueue?, test: @escaping PMKGuaranteedHandler<Int, Bool>)
        -> Promise<[Int]>
    where P.T == [Int]
    func first(of promise: Promise<[Int]>) -> Promise<Int>
    func last(of promise: Promise<[Int]>) -> Promise<Int>
    func sorted(_ promise: Promise<[Int]>, on: DispatchQueue?) -> Promise<[Int]>
    #if PMKFullDeprecations
        func flatMap(_ promise: Promise<Int>, on: DispatchQueue?, _ transform: @escaping (Int) -> Int?)
            -> Promise<Int>
        func map(_ promise: Promise<[Int]>, on: DispatchQueue?, _ transform: @escaping (Int) -> Int)
            -> Promise<[Int]>
        func flatMap(_ promise: Promise<[Int]>, on: DispatchQueue?, _ transform: @escaping (Int) -> [Int])
            -> Promise<[Int]>
    #endif
}

private let oldAPI: any CallsDeprecatedAPI = DeprecatedAPI()

private struct DeprecatedAPI: CallsDeprecatedAPI {
    @available(*, deprecated, message: "calls PromiseKit's deprecated API on purpose")
    func wrapOptionalValueAndError(_ body: (@escaping PMKCompletion<Int?, Error?>) throws -> Void) -> Promise<Int> {
        wrap(body)
    }

    @available(*, deprecated, message: "calls PromiseKit's deprecated API on purpose")
    func wrapValueAndError(_ body: (@escaping PMKCompletion<Int, Error?>) throws -> Void) -> Promise<Int> {
        wrap(body)
    }

    @available(*, deprecated, message: "calls PromiseKit's deprecated API on purpose")
    func wrapErrorAndOptionalValue(_ body: (@escaping PMKCompletion<Error?, Int?>) throws -> Void) -> Promise<Int> {
        wrap(body)
    }

    @available(*, deprecated, message: "calls PromiseKit's deprecated API on purpose")
    func wrapError(_ body: (@escaping PMKGuaranteedHandler<Error?, Void>) throws -> Void) -> Promise<Void> {
        wrap(body)
    }

    @available(*, deprecated, message: "calls PromiseKit's deprecated API on purpose")
    func wrapValue(_ body: (@escaping PMKGuaranteedHandler<Int, Void>) throws -> Void) -> Promise<Int> {
        wrap(body)
    }

    @available(*, deprecated, message: "calls PromiseKit's deprecated API on purpose")
    func always(_ promise: Promise<Int>, on: DispatchQueue, execute: @escaping PMKThunk<Void>) -> Promise<Int> {
        promise.always(on: on, execute: execute)
    }

    @available(*, deprecated, message: "calls PromiseKit's deprecated API on purpose")
    func filter<P: Thenable>(_ thenable: P, on: DispatchQueue?, test: @escaping PMKGuaranteedHandler<Int, Bool>)
        -> Promise<[Int]>
    where P.T == [Int] {
        thenable.filter(on: on, test: test)
    }

    @available(*, deprecated, message: "calls PromiseKit's deprecated API on purpose")
    func first(of promise: Promise<[Int]>) -> Promise<Int> { promise.first }

    @available(*, deprecated, message: "calls PromiseKit's deprecated API on purpose")
    func last(of promise: Promise<[Int]>) -> Promise<Int> { promise.last }

    @available(*, deprecated, message: "calls PromiseKit's deprecated API on purpose")
    func sorted(_ promise: Promise<[Int]>, on: DispatchQueue?) -> Promise<[Int]> { promise.sorted(on: on) }

    #if PMKFullDeprecations
        @available(*, deprecated, message: "calls PromiseKit's deprecated API on purpose")
        func flatMap(_ promise: Promise<Int>, on: DispatchQueue?, _ transform: @escaping (Int) -> Int?)
            -> Promise<Int>
        {
            promise.flatMap(on: on, transform)
        }

        @available(*, deprecated, message: "calls PromiseKit's deprecated API on purpose")
        func map(_ promise: Promise<[Int]>, on: DispatchQueue?, _ transform: @escaping (Int) -> Int)
            -> Promise<[Int]>
        {
            promise.map(on: on, transform)
        }

        @available(*, deprecated, message: "calls PromiseKit's deprecated API on purpose")
        func flatMap(_ promise: Promise<[Int]>, on: DispatchQueue?, _ transform: @escaping (Int) -> [Int])
            -> Promise<[Int]>
        {
            promise.flatMap(on: on, transform)
        }
    #endif
}
