import Dispatch
import PromiseKitStyle
import TestSupport
import Testing

/// Code written for PromiseKit 8 compiles and behaves the same here: one test per behaviour of issue #12.
@Suite("Drop-in fidelity with PromiseKit 8")
struct CompatibilityTests {
    enum Failure: Error { case boom }

    struct Coded: Error, Equatable { let code: Int }

    // MARK: Result<T>

    @Test func resultIsPromiseKitsEnum() async {
        let events = await PromiseKitLog.record {
            let fulfilled: Result<Int> = .fulfilled(3)
            let rejected: Result<Int> = .rejected(Failure.boom)
            #expect(fulfilled.isFulfilled && !rejected.isFulfilled)
            switch Promise.value(3).result {
            case .fulfilled(let value)?: #expect(value == 3)
            case .rejected?, nil: Issue.record("expected .fulfilled(3)")
            }
            switch Promise<Int>(error: Failure.boom).result {
            case .rejected(let error)?: #expect(error as? Failure == .boom)
            case .fulfilled?, nil: Issue.record("expected .rejected(boom)")
            }
            #expect(Promise<Int>.pending().promise.result == nil)
        }
        #expect(events == ["pendingPromiseDeallocated"], "the dropped pending promise")
    }

    @Test func guaranteeResultIsFulfilled() async {
        let events = await PromiseKitLog.record {
            guard case .fulfilled(4)? = Guarantee.value(4).result else {
                Issue.record("expected .fulfilled(4)")
                return
            }
            #expect(Guarantee<Int>.pending().guarantee.result == nil)
        }
        #expect(events == ["pendingGuaranteeDeallocated"], "the dropped pending guarantee")
    }

    @Test func pipeToGivesResult() {
        var seen: [String] = []
        Promise.value(1).pipe { result in
            if case .fulfilled(let value) = result { seen.append("fulfilled \(value)") }
        }
        Promise<Int>(error: Failure.boom).pipe { result in
            if case .rejected(Failure.boom) = result { seen.append("rejected") }
        }
        Guarantee.value(2).pipe { (result: Result<Int>) in
            if case .fulfilled(let value) = result { seen.append("guarantee \(value)") }
        }
        #expect(seen == ["fulfilled 1", "rejected", "guarantee 2"])
    }

    @Test func tapGivesResultAndPassesItOn() async throws {
        nonisolated(unsafe) var tapped: [String] = []
        let value = try await Promise.value(5).tap(on: nil) { result in
            switch result {
            case .fulfilled(let value): tapped.append("fulfilled \(value)")
            case .rejected: tapped.append("rejected")
            }
        }.async()
        #expect(value == 5)
        await #expect(throws: Failure.self) {
            try await Promise<Int>(error: Failure.boom).tap(on: nil) { result in
                if case .rejected(Failure.boom) = result { tapped.append("rejected boom") }
            }.async()
        }
        #expect(tapped == ["fulfilled 5", "rejected boom"])
    }

    @Test func whenResolvedGivesResults() async {
        let results: [Result<Int>] = await when(resolved: [Promise.value(1), Promise(error: Failure.boom)]).async()
        guard results.count == 2, case .fulfilled(1) = results[0], case .rejected(Failure.boom) = results[1] else {
            Issue.record("expected [.fulfilled(1), .rejected(boom)], got \(results)")
            return
        }
        let pulled = await when(resolved: [Promise.value(2)].makeIterator(), concurrently: 1).async()
        #expect(pulled.map(\.isFulfilled) == [true])
    }

    @Test func resolverResolvesWithResult() {
        let (fulfilled, first) = Promise<Int>.pending()
        first.resolve(.fulfilled(6))
        let (rejected, second) = Promise<Int>.pending()
        second.resolve(Result<Int>.rejected(Failure.boom))
        #expect(fulfilled.value == 6)
        #expect(rejected.error as? Failure == .boom)
    }

    @Test func resolverTakesSwiftResultOfAnyErrorType() {
        func fetch(_ outcome: Swift.Result<Int, Coded>, completion: @escaping (Swift.Result<Int, Coded>) -> Void) {
            completion(outcome)
        }
        let fulfilled = Promise<Int> { seal in fetch(.success(7), completion: seal.resolve) }
        let rejected = Promise<Int> { seal in fetch(.failure(Coded(code: 2)), completion: seal.resolve) }
        let untyped = Promise<Int> { seal in seal.resolve(Swift.Result<Int, any Error>.failure(Failure.boom)) }
        #expect(fulfilled.value == 7)
        #expect(rejected.error as? Coded == Coded(code: 2))
        #expect(untyped.error as? Failure == .boom)
    }

    @Test func resultConvertsToAndFromSwiftResult() throws {
        let fromSuccess = Result(Swift.Result<Int, Coded>.success(8))
        let fromFailure = Result(Swift.Result<Int, Coded>.failure(Coded(code: 3)))
        #expect(try fromSuccess.get() == 8)
        #expect(throws: Coded(code: 3)) { try fromFailure.get() }
        #expect(try Swift.Result(Result<Int>.fulfilled(9)).get() == 9)
        #expect(throws: Failure.boom) { try Swift.Result(Result<Int>.rejected(Failure.boom)).get() }
    }

    // MARK: LogEvent

    /// The switch PromiseKit's own `LoggingTests` write: it must be exhaustive with no `default`.
    private static func name(of event: LogEvent) -> String {
        switch event {
        case .waitOnMainThread, .pendingPromiseDeallocated, .pendingGuaranteeDeallocated: return "\(event)"
        case .cauterized: return "cauterized"
        }
    }

    @Test func logEventHasPromiseKitsCases() {
        #expect(Self.name(of: .waitOnMainThread) == "waitOnMainThread")
        #expect(Self.name(of: .pendingPromiseDeallocated) == "pendingPromiseDeallocated")
        #expect(Self.name(of: .pendingGuaranteeDeallocated) == "pendingGuaranteeDeallocated")
        #expect(Self.name(of: .cauterized(Failure.boom)) == "cauterized")
    }

    @Test func doubleResolutionIsReportedAsCauterized() async {
        let reports = await ProcessWideTestLock.withLock(.brief) { () -> [String] in
            let saved = conf
            defer { conf = saved }
            let log = Locked<[String]>([])
            conf.logHandler = { event in
                guard case .cauterized(let error as PMKDoubleResolution) = event else { return }
                log.withLock { $0.append(error.ignoredError.map { "\($0)" } ?? "fulfilment") }
            }
            let (promise, resolver) = Promise<Int>.pending()
            resolver.fulfill(1)
            resolver.fulfill(2)
            resolver.reject(Failure.boom)
            let (guarantee, resolve) = Guarantee<Int>.pending()
            resolve(3)
            resolve(4)
            #expect(promise.value == 1 && guarantee.value == 3)
            return log.withLock { $0 }
        }
        #expect(reports == ["fulfilment", "boom", "fulfilment"])
    }

    // MARK: Descriptions

    @Test func promiseDescriptionIsPromiseKits() async {
        let events = await PromiseKitLog.record {
            #expect(Promise.value(3).description == "Promise(3)")
            #expect(Promise<Int>.pending().promise.description == "Promise(…Int)")
            #expect(Promise<Int>(error: Failure.boom).description == "Promise(boom)")
            #expect("\(Promise.value("a"))" == "Promise(a)")
        }
        #expect(events == ["pendingPromiseDeallocated"], "the dropped pending promise")
    }

    @Test func promiseDebugDescriptionIsPromiseKits() {
        let (pending, resolver) = Promise<Int>.pending()
        #expect(pending.debugDescription == "Promise<Int>.pending(handlers: 0)")
        pending.pipe { _ in }
        pending.pipe { _ in }
        #expect(pending.debugDescription == "Promise<Int>.pending(handlers: 2)")
        resolver.fulfill(3)
        #expect(pending.debugDescription == "Promise<Int>.fulfilled(3)")
        #expect(Promise<Int>(error: Failure.boom).debugDescription == "Promise<Int>.rejected(Failure.boom)")
        #expect(Promise().debugDescription == "Promise<()>.fulfilled(())")
    }

    @Test func guaranteeDescriptionsFollowThePromiseFormat() {
        let (pending, resolve) = Guarantee<Int>.pending()
        #expect(pending.description == "Guarantee(…Int)")
        pending.pipe { _ in }
        #expect(pending.debugDescription == "Guarantee<Int>.pending(handlers: 1)")
        resolve(3)
        #expect(pending.description == "Guarantee(3)")
        #expect(pending.debugDescription == "Guarantee<Int>.fulfilled(3)")
    }

    // MARK: Void values

    @Test func voidValueIsAStaticProperty() {
        func save() -> Promise<Void> { .value }
        func saved() -> Guarantee<Void> { .value }
        #expect(save().isFulfilled)
        #expect(saved().isFulfilled)
        #expect(Promise<Void>.value(()).isFulfilled)
    }

    // MARK: when(fulfilled: [any Thenable])

    @Test func whenFulfilledTakesAMixedArray() async throws {
        let (slow, resolver) = Promise<Int>.pending()
        let all = when(fulfilled: [slow, Guarantee.value("b"), Promise.value(3.5)] as [any Thenable])
        resolver.fulfill(1)
        let values = try await all.async()
        #expect(values.count == 3)
        #expect(values[0] as? Int == 1 && values[1] as? String == "b" && values[2] as? Double == 3.5)
        let failed = when(fulfilled: [Guarantee.value(1), Promise<Int>(error: Failure.boom)] as [any Thenable])
        await #expect(throws: Failure.boom) { _ = try await failed.async() }
    }

    @Test func whenFulfilledArrayLiteralWithoutTypeContextIsAny() {
        // As in PromiseKit 8.2: the non-generic `[any Thenable]` overload wins when nothing asks for `[Int]`.
        let untyped = when(fulfilled: [Promise.value(1), Promise.value(2)])
        let typed: Promise<[Int]> = when(fulfilled: [Promise.value(1), Promise.value(2)])
        #expect(type(of: untyped) == Promise<[Any]>.self)
        #expect(typed.value == [1, 2])
    }

    // MARK: PMKError

    @Test func pmkErrorHasPromiseKitsCases() {
        let cases: [PMKError] = [
            .invalidCallingConvention, .returnedSelf, .badInput, .cancelled, .compactMap(1, String.self),
            .emptySequence, .noWinner, promiseKitSwitch.flatMapCase(),
        ]
        #expect(
            cases.map { promiseKitSwitch.name(of: $0) } == [
                "invalidCallingConvention", "returnedSelf", "badInput", "cancelled", "compactMap", "emptySequence",
                "noWinner", "flatMap",
            ])
    }

    @Test func pmkErrorDescriptionsArePromiseKits() {
        #expect(promiseKitSwitch.flatMapCase().debugDescription == "Could not `flatMap<String>`: 1")
        #expect(PMKError.compactMap(1, String.self).debugDescription == "Could not `compactMap<String>`: 1")
        #expect(PMKError.badInput.errorDescription == "Bad input was provided to a PromiseKit function")
        #expect(PMKError.cancelled.isCancelled)
    }
}

/// An exhaustive `switch` over `PMKError` as PromiseKit code writes it, deprecated `.flatMap` included. Its methods
/// are deprecated so that naming `.flatMap` warns nowhere; the tests reach them through `NamesPMKErrors`.
private protocol NamesPMKErrors: Sendable {
    func name(of error: PMKError) -> String
    func flatMapCase() -> PMKError
}

/// Seen as `any NamesPMKErrors`, so calling its deprecated methods is not a deprecated use.
private let promiseKitSwitch: any NamesPMKErrors = PromiseKitSwitch()

private struct PromiseKitSwitch: NamesPMKErrors {
    @available(*, deprecated, message: "names PMKError.flatMap on purpose")
    func name(of error: PMKError) -> String {
        switch error {
        case .invalidCallingConvention: return "invalidCallingConvention"
        case .returnedSelf: return "returnedSelf"
        case .badInput: return "badInput"
        case .cancelled: return "cancelled"
        case .flatMap: return "flatMap"
        case .compactMap: return "compactMap"
        case .emptySequence: return "emptySequence"
        case .noWinner: return "noWinner"
        }
    }

    @available(*, deprecated, message: "names PMKError.flatMap on purpose")
    func flatMapCase() -> PMKError { .flatMap(1, String.self) }
}

/// The key-path forms of PromiseKit's chain methods.
@Suite("Key-path chain methods")
struct KeyPathTests {
    struct Item {
        let name: String
        let nickname: String?
        let active: Bool
    }

    // Key paths as values, not literals: a literal could also become a closure and pick the closure form.
    let count: KeyPath<[Item], Int> = \.count
    let name: KeyPath<Item, String> = \.name
    let nickname: KeyPath<Item, String?> = \.nickname
    let active: KeyPath<Item, Bool> = \.active

    let items = [
        Item(name: "a", nickname: "x", active: true), Item(name: "b", nickname: nil, active: false),
        Item(name: "c", nickname: "z", active: true),
    ]

    @Test func promiseKeyPathForms() async throws {
        let promise = Promise.value(items)
        #expect(try await promise.map(on: nil, count).async() == 3)
        #expect(try await promise.mapValues(on: nil, name).async() == ["a", "b", "c"])
        #expect(try await promise.compactMapValues(on: nil, nickname).async() == ["x", "z"])
        #expect(try await promise.filterValues(on: nil, active).async().map(\.name) == ["a", "c"])
        #expect(try await Promise.value(items[0]).compactMap(on: nil, nickname).async() == "x")
        await #expect {
            try await Promise.value(items[1]).compactMap(on: nil, nickname).async()
        } throws: { error in
            guard case .compactMap? = error as? PMKError else { return false }
            return true
        }
    }

    @Test func guaranteeKeyPathForms() async {
        let guarantee = Guarantee.value(items)
        #expect(await guarantee.map(on: nil, count).async() == 3)
        #expect(await guarantee.mapValues(on: nil, name).async() == ["a", "b", "c"])
        #expect(await guarantee.compactMapValues(on: nil, nickname).async() == ["x", "z"])
        #expect(await guarantee.filterValues(on: nil, active).async().map(\.name) == ["a", "c"])
    }
}
