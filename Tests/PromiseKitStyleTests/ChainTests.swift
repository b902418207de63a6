import Dispatch
import Foundation
import PromiseKitStyle
import TestSupport
import Testing

@Suite("Promise creation, chaining and inspection")
struct ChainTests {
    @Test func valueErrorAndPendingCreation() async throws {
        let fulfilled = Promise.value(3)
        #expect(fulfilled.isFulfilled && fulfilled.isResolved && !fulfilled.isPending && !fulfilled.isRejected)
        #expect(fulfilled.value == 3)
        #expect(fulfilled.error == nil)
        #expect(fulfilled.result.map { (try? $0.get()) == 3 } == true)

        let rejected = Promise<Int>(error: TestError())
        #expect(rejected.isRejected && rejected.isResolved && !rejected.isFulfilled)
        #expect(rejected.value == nil)
        #expect(rejected.error as? TestError == TestError())

        let (pending, resolver) = Promise<String>.pending()
        #expect(pending.isPending && !pending.isResolved)
        #expect(pending.result == nil && pending.value == nil && pending.error == nil)
        resolver.fulfill("done")
        #expect(pending.value == "done")

        let void = Promise()
        #expect(void.isFulfilled)
    }

    @Test func resolverClosureAndThrowingBody() async throws {
        let resolved = Promise<Int> { seal in seal.fulfill(1) }
        #expect(resolved.value == 1)
        let thrown = Promise<Int> { _ in throw TestError(code: 2) }
        #expect(thrown.error as? TestError == TestError(code: 2))
    }

    @Test func resolverForms() async throws {
        let (a, ra) = Promise<Int>.pending()
        ra.resolve(.fulfilled(4))
        #expect(a.value == 4)
        let (b, rb) = Promise<Int>.pending()
        rb.resolve(.rejected(TestError()))
        #expect(b.isRejected)
        let (c, rc) = Promise<Int>.pending()
        rc.resolve(5, nil)
        #expect(c.value == 5)
        let (d, rd) = Promise<Int>.pending()
        rd.resolve(nil as Int?, TestError(code: 3))
        #expect(d.error as? TestError == TestError(code: 3))
        let (e, re) = Promise<Int>.pending()
        re.resolve(nil as Int?, nil)
        guard case PMKError.invalidCallingConvention? = e.error else {
            Issue.record("expected invalidCallingConvention, got \(String(describing: e.error))")
            return
        }
        let (f, rf) = Promise<Int>.pending()
        rf.resolve(TestError(code: 4) as Error?, nil as Int?)
        #expect(f.error as? TestError == TestError(code: 4))
        let (g, rg) = Promise<Int>.pending()
        rg.resolve(6 as Int, TestError(code: 5))
        #expect(g.error as? TestError == TestError(code: 5))
        let (h, rh) = Promise<Void>.pending()
        rh.resolve(nil as Error?)
        #expect(h.isFulfilled)
        let (i, ri) = Promise<Void>.pending()
        ri.resolve(TestError() as Error?)
        #expect(i.isRejected)
        let (j, rj) = Promise<Void>.pending()
        rj.fulfill_()
        #expect(j.isFulfilled)
        let (k, rk) = Promise<Int>.pending()
        rk.reject(TestError(code: 7))
        #expect(k.error as? TestError == TestError(code: 7))
        #expect(Result<Int>.fulfilled(1).isFulfilled)
        #expect(!Result<Int>.rejected(TestError()).isFulfilled)
    }

    @Test func thenMapDoneGetTapCompactMap() async throws {
        nonisolated(unsafe) var seen: [String] = []
        let result = try await Promise.value(2)
            .then(on: testQueue) { Promise.value($0 * 10) }
            .map(on: testQueue) { $0 + 1 }
            .get(on: testQueue) { seen.append("get \($0)") }
            .tap(on: testQueue) { result in seen.append("tap \(String(describing: try? result.get()))") }
            .compactMap(on: testQueue) { Int("\($0)") }
            .async()
        #expect(result == 21)
        #expect(seen == ["get 21", "tap Optional(21)"])

        nonisolated(unsafe) var doneWith: Int?
        try await Promise.value(5).done(on: testQueue) { doneWith = $0 }.async()
        #expect(doneWith == 5)
    }

    @Test func thenAcceptsGuaranteeAndFlags() async throws {
        let value = try await Promise.value(1)
            .then(on: concurrentQueue, flags: .barrier) { Guarantee.value($0 + 1) }
            .map(on: concurrentQueue, flags: .barrier) { $0 * 3 }
            .async()
        #expect(value == 6)
    }

    @Test func errorsSkipTheChainAndThrowingClosuresReject() async throws {
        nonisolated(unsafe) var ran = false
        let skipped = Promise<Int>(error: TestError(code: 9))
            .then(on: testQueue) { _ -> Promise<Int> in
                ran = true
                return .value(1)
            }
            .map(on: testQueue) { _ in ran = true }
            .done(on: testQueue) { ran = true }
        await #expect(throws: TestError(code: 9)) { try await skipped.async() }
        #expect(!ran)

        await #expect(throws: TestError(code: 1)) {
            try await Promise.value(1).map(on: testQueue) { _ -> Int in throw TestError(code: 1) }.async()
        }
        await #expect(throws: TestError(code: 2)) {
            try await Promise.value(1).then(on: testQueue) { _ -> Promise<Int> in throw TestError(code: 2) }.async()
        }
        await #expect(throws: TestError(code: 3)) {
            try await Promise.value(1).done(on: testQueue) { _ in throw TestError(code: 3) }.async()
        }
        await #expect(throws: TestError(code: 4)) {
            try await Promise.value(1).get(on: testQueue) { _ in throw TestError(code: 4) }.async()
        }
        await #expect(throws: TestError(code: 5)) {
            try await Promise.value(1).compactMap(on: testQueue) { _ -> Int? in throw TestError(code: 5) }.async()
        }
        nonisolated(unsafe) var tapped: Result<Int>?
        await #expect(throws: TestError(code: 6)) {
            try await Promise<Int>(error: TestError(code: 6)).tap(on: testQueue) { tapped = $0 }.async()
        }
        #expect(tapped.map { !$0.isFulfilled } == true)
    }

    @Test func compactMapNilRejects() async throws {
        let promise = Promise.value("x").compactMap(on: testQueue) { Int($0) }
        do {
            _ = try await promise.async()
            Issue.record("expected a rejection")
        } catch PMKError.compactMap(let value, let type) {
            #expect(value as? String == "x")
            #expect(ObjectIdentifier(type) == ObjectIdentifier(Int.self))
        }
    }

    @Test func returningSelfRejects() async throws {
        let (root, resolver) = Promise<Int>.pending()
        let returned = Locked<Promise<Int>?>(nil)
        let chained = root.then(on: testQueue) { _ in returned.withLock { $0! } }
        returned.withLock { $0 = chained }
        resolver.fulfill(1)
        do {
            _ = try await chained.async()
            Issue.record("expected returnedSelf")
        } catch PMKError.returnedSelf {}
    }

    @Test func asVoidKeepsTheOutcome() async throws {
        try await Promise.value(3).asVoid().async()
        await #expect(throws: TestError.self) { try await Promise<Int>(error: TestError()).asVoid().async() }
    }

    @Test(.offThePool) func handlersOnAQueueNeverRunInsideTheRegisteringCall() async throws {
        // Even on an already fulfilled promise, a handler given a queue runs later, not inside `then`/`done`.
        let gate = DispatchSemaphore(value: 0)
        let queue = DispatchQueue(label: "zalgo")
        queue.async { gate.wait() }  // keep the queue busy so the handler cannot run before we look
        nonisolated(unsafe) var ran = false
        let done = Promise.value(1).done(on: queue) { _ in ran = true }
        #expect(!ran)
        gate.signal()
        try await done.async()
        #expect(ran)
    }

    @Test func onNilRunsInline() {
        nonisolated(unsafe) var order: [Int] = []
        let (promise, resolver) = Promise<Int>.pending()
        _ = promise.map(on: nil) { order.append($0) }
        order.append(0)
        resolver.fulfill(1)
        order.append(2)
        #expect(order == [0, 1, 2])
        // Already resolved: runs inside the call.
        _ = Promise.value(3).done(on: nil) { order.append($0) }
        #expect(order == [0, 1, 2, 3])
    }

    @Test func handlersRunInRegistrationOrder() {
        var order: [Int] = []
        let (promise, resolver) = Promise<Int>.pending()
        for index in 0..<5 { promise.pipe { _ in order.append(index) } }
        resolver.fulfill(0)
        #expect(order == [0, 1, 2, 3, 4])
    }

    @Test func bridgeInitFollowsAnotherThenable() async throws {
        let (guarantee, resolve) = Guarantee<Int>.pending()
        let promise = Promise(guarantee)
        resolve(8)
        #expect(try await promise.async() == 8)
        let (source, resolver) = Promise<Int>.pending()
        let follower = Promise(source)
        resolver.reject(TestError())
        await #expect(throws: TestError.self) { try await follower.async() }
    }

    @Test func firstlyForPromisesAndGuarantees() async throws {
        #expect(try await firstly { Promise.value(1) }.async() == 1)
        await #expect(throws: TestError.self) {
            try await firstly { () throws -> Promise<Int> in throw TestError() }.async()
        }
        #expect(await firstly { Guarantee.value(2) }.async() == 2)
        // A guarantee body through the thenable form gives a promise.
        let promise: Promise<Int> = firstly { () throws -> Guarantee<Int> in Guarantee.value(3) }
        #expect(try await promise.async() == 3)
    }

    @Test func dispatchQueueAsyncPromise() async throws {
        let promise: Promise<Int> = concurrentQueue.async(.promise) { () throws -> Int in 4 }
        #expect(try await promise.async() == 4)
        let failing: Promise<Int> = concurrentQueue.async(.promise, flags: .barrier) { () throws -> Int in
            throw TestError()
        }
        await #expect(throws: TestError.self) { try await failing.async() }
        let guarantee: Guarantee<Int> = concurrentQueue.async(.promise, qos: .utility) { 5 }
        #expect(await guarantee.async() == 5)
    }

    @Test(.offThePool) func waitBlocksUntilResolved() throws {
        let (promise, resolver) = Promise<Int>.pending()
        concurrentQueue.asyncAfter(deadline: .now() + 0.05) { resolver.fulfill(7) }
        #expect(try promise.wait() == 7)
        #expect(try Promise.value(1).wait() == 1)
        #expect(throws: TestError.self) { try Promise<Int>(error: TestError()).wait() }
    }

    @Test func pmkErrorDescriptions() {
        let errors: [PMKError] = [
            .invalidCallingConvention, .returnedSelf, .badInput, .cancelled, .compactMap(1, String.self),
            .emptySequence, .noWinner,
        ]
        for error in errors {
            #expect(!error.debugDescription.isEmpty)
            #expect(error.errorDescription == error.debugDescription)
        }
    }
}

/// A thenable of the caller's own: the chain methods work on anything that conforms.
final class Deferred<T>: Thenable {
    private var handlers: [(Result<T>) -> Void] = []
    private(set) var result: Result<T>?

    func pipe(to: @escaping (Result<T>) -> Void) {
        if let result { to(result) } else { handlers.append(to) }
    }

    func settle(_ result: Result<T>) {
        self.result = result
        for handler in handlers { handler(result) }
        handlers = []
    }
}

@Suite("Custom thenables")
struct CustomThenableTests {
    @Test func chainMethodsWorkOnAnyThenable() async throws {
        let deferred = Deferred<Int>()
        let chained = deferred.map(on: nil) { $0 * 2 }.then(on: nil) { Promise.value($0 + 1) }
        let joined: Promise<[Int]> = when(fulfilled: [deferred])
        #expect(deferred.isPending && deferred.value == nil)
        deferred.settle(.fulfilled(4))
        #expect(deferred.isFulfilled && deferred.value == 4)
        #expect(chained.value == 9)
        #expect(joined.value == [4])
        let failed = Deferred<Int>()
        failed.settle(.rejected(TestError()))
        #expect(failed.isRejected && failed.error is TestError)
    }
}
