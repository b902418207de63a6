import Dispatch
import Foundation
import PromiseKitStyle
import TestSupport
import Testing

struct Cancelled: CancellableError {
    var isCancelled: Bool { true }
}

struct NotCancelled: CancellableError {
    var isCancelled: Bool { false }
}

@Suite("catch, recover, ensure and cancellation")
struct CatchTests {
    @Test func catchSeesTheErrorAndFinallyRuns() async {
        let events = EventLog()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Promise<Int>(error: TestError(code: 3))
                .done(on: testQueue) { _ in events.add("done") }
                .catch(on: testQueue) { events.add("catch \(($0 as? TestError)?.code ?? 0)") }
                .finally(on: testQueue) {
                    events.add("finally")
                    continuation.resume()
                }
        }
        #expect(events.all == ["catch 3", "finally"])
    }

    @Test func finallyRunsWhenFulfilledAndCatchDoesNot() async {
        let events = EventLog()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Promise.value(1)
                .catch(on: testQueue, flags: .barrier) { _ in events.add("catch") }
                .finally(on: testQueue, flags: .barrier) {
                    events.add("finally")
                    continuation.resume()
                }
        }
        #expect(events.all == ["finally"])
    }

    @Test func catchSkipsCancellationByDefaultButNotUnderAllErrors() async {
        let events = EventLog()
        for error in [PMKError.cancelled as Error, Cancelled(), CancellationError()] {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                Promise<Int>(error: error)
                    .catch(on: testQueue, policy: .allErrorsExceptCancellation) { _ in events.add("default") }
                    .finally(on: testQueue) { continuation.resume() }
            }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                Promise<Int>(error: error)
                    .catch(on: testQueue, policy: .allErrors) { _ in events.add("all") }
                    .finally(on: testQueue) { continuation.resume() }
            }
        }
        #expect(events.all == ["all", "all", "all"])
    }

    @Test func catchEndsAChainThroughAGuarantee() async {
        let events = EventLog()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Promise.value(1)
                .then(on: testQueue) { Guarantee.value($0 + 1) }
                .done(on: testQueue) { events.add("done \($0)") }
                .catch(on: testQueue) { _ in events.add("catch") }
                .finally(on: testQueue) {
                    events.add("finally")
                    continuation.resume()
                }
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Promise<Int>(error: TestError(code: 4))
                .then(on: testQueue) { Guarantee.value($0 + 1) }
                .done(on: testQueue) { events.add("done \($0)") }
                .catch(on: testQueue) { events.add("catch \(($0 as? TestError)?.code ?? 0)") }
                .finally(on: testQueue) {
                    events.add("finally")
                    continuation.resume()
                }
        }
        #expect(events.all == ["done 2", "finally", "catch 4", "finally"])
    }

    @Test func inlineCatchRunsBeforeTheRejectionReturns() {
        nonisolated(unsafe) var events: [String] = []
        let (promise, resolver) = Promise<Int>.pending()
        promise.catch(on: nil, policy: .allErrors) { events.append("catch \(($0 as? TestError)?.code ?? 0)") }
            .finally(on: nil) { events.append("finally") }
        events.append("registered")
        resolver.reject(TestError(code: 6))
        events.append("rejected")
        #expect(events == ["registered", "catch 6", "finally", "rejected"])
    }

    @Test func everyFinallyRunsInOrderBeforeAndAfterTheChainEnds() {
        nonisolated(unsafe) var events: [String] = []
        let (promise, resolver) = Promise<Int>.pending()
        let finalizer = promise.catch(on: nil) { _ in events.append("catch") }
        finalizer.finally(on: nil) { events.append("finally 1") }
        finalizer.finally(on: nil) { events.append("finally 2") }
        resolver.fulfill(1)
        finalizer.finally(on: nil) { events.append("finally 3") }
        #expect(events == ["finally 1", "finally 2", "finally 3"])
    }

    @Test func aKeptFinalizerReleasesTheCatchHandlerOnceTheChainEnds() {
        for reject in [false, true] {
            var freed = 0
            let (promise, resolver) = Promise<Int>.pending()
            let finalizer: PMKFinalizer
            do {
                let captured = Tracked(id: 1) { freed += 1 }
                finalizer = promise.catch(on: nil) { _ in withExtendedLifetime(captured) {} }
            }
            #expect(freed == 0)
            if reject { resolver.reject(TestError()) } else { resolver.fulfill(1) }
            #expect(freed == 1, "reject: \(reject)")
            withExtendedLifetime(finalizer) {}
        }
    }

    @Test func isCancelled() {
        #expect(PMKError.cancelled.isCancelled)
        #expect(!PMKError.badInput.isCancelled)
        #expect(Cancelled().isCancelled)
        #expect(!NotCancelled().isCancelled)
        #expect(CancellationError().isCancelled)
        #expect(URLError(.cancelled).isCancelled)
        #expect(!URLError(.timedOut).isCancelled)
        #expect(CocoaError(.userCancelled).isCancelled)
        #expect(!TestError().isCancelled)
    }

    @Test func recoverWithAPromise() async throws {
        let recovered = try await Promise<Int>(error: TestError())
            .recover(on: testQueue) { _ in Promise.value(5) }
            .async()
        #expect(recovered == 5)
        let untouched = try await Promise.value(1).recover(on: testQueue) { _ in Promise.value(5) }.async()
        #expect(untouched == 1)
        await #expect(throws: TestError(code: 2)) {
            try await Promise<Int>(error: TestError(code: 1))
                .recover(on: testQueue, flags: .barrier) { _ -> Promise<Int> in throw TestError(code: 2) }
                .async()
        }
    }

    @Test func recoverSkipsCancellationUnlessAllErrors() async throws {
        nonisolated(unsafe) var ran = false
        do {
            _ = try await Promise<Int>(error: PMKError.cancelled)
                .recover(on: testQueue) { _ -> Promise<Int> in
                    ran = true
                    return .value(1)
                }
                .async()
            Issue.record("expected cancellation to pass through")
        } catch PMKError.cancelled {}
        #expect(!ran)
        let value = try await Promise<Int>(error: PMKError.cancelled)
            .recover(on: testQueue, policy: .allErrors) { _ in Promise.value(2) }
            .async()
        #expect(value == 2)
    }

    @Test func recoverReturningSelfRejects() async throws {
        let (root, resolver) = Promise<Int>.pending()
        let returned = Locked<Promise<Int>?>(nil)
        let recovered = root.recover(on: testQueue) { _ in returned.withLock { $0! } }
        returned.withLock { $0 = recovered }
        resolver.reject(TestError())
        do {
            _ = try await recovered.async()
            Issue.record("expected returnedSelf")
        } catch PMKError.returnedSelf {}
    }

    @Test func recoverWithAGuaranteeHandlesEverything() async {
        let fromError: Guarantee<Int> = Promise<Int>(error: PMKError.cancelled)
            .recover(on: testQueue) { _ in Guarantee.value(3) }
        #expect(await fromError.async() == 3)
        let fromValue: Guarantee<Int> = Promise.value(4).recover(on: testQueue, flags: .barrier) { _ in .value(0) }
        #expect(await fromValue.async() == 4)
    }

    @Test func voidRecoverForms() async throws {
        nonisolated(unsafe) var handled: [String] = []
        let guarantee: Guarantee<Void> = Promise<Void>(error: TestError()).recover(on: testQueue) { (_: Error) in
            handled.append("guarantee")
        }
        await guarantee.async()
        let fulfilled: Guarantee<Void> = Promise<Void>().recover(on: testQueue) { (_: Error) in
            handled.append("never")
        }
        await fulfilled.async()
        let promise: Promise<Void> = Promise<Void>(error: TestError()).recover(on: testQueue, policy: .allErrors) {
            (_: Error) throws in handled.append("promise")
        }
        try await promise.async()
        let rethrown: Promise<Void> = Promise<Void>(error: TestError(code: 1)).recover(
            on: testQueue, policy: .allErrors
        ) {
            (_: Error) throws in throw TestError(code: 2)
        }
        await #expect(throws: TestError(code: 2)) { try await rethrown.async() }
        let cancelled: Promise<Void> = Promise<Void>(error: PMKError.cancelled).recover(
            on: testQueue, policy: .allErrorsExceptCancellation
        ) { (_: Error) throws in handled.append("cancelled") }
        await #expect(throws: PMKError.self) { try await cancelled.async() }
        let ok: Promise<Void> = Promise<Void>().recover(on: testQueue, policy: .allErrors) { (_: Error) throws in
            handled.append("never")
        }
        try await ok.async()
        #expect(handled == ["guarantee", "promise"])
    }

    @Test func ensureRunsEitherWay() async throws {
        nonisolated(unsafe) var ensured = 0
        #expect(try await Promise.value(1).ensure(on: testQueue) { ensured += 1 }.async() == 1)
        await #expect(throws: TestError.self) {
            try await Promise<Int>(error: TestError()).ensure(on: testQueue, flags: .barrier) { ensured += 1 }.async()
        }
        #expect(ensured == 2)
    }

    @Test func ensureThenWaitsForItsGuarantee() async throws {
        let events = EventLog()
        let value = try await Promise.value(1)
            .ensureThen(on: testQueue) {
                events.add("ensureThen")
                return after(.milliseconds(20)).map(on: nil) { events.add("after") }
            }
            .get(on: testQueue) { _ in events.add("get") }
            .async()
        #expect(value == 1)
        #expect(events.all == ["ensureThen", "after", "get"])
        await #expect(throws: TestError.self) {
            try await Promise<Int>(error: TestError()).ensureThen(on: testQueue, flags: .barrier) { Guarantee() }
                .async()
        }
    }
}

/// A thread-safe list of strings for tests whose handlers run on several queues.
final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [String] = []

    func add(_ event: String) {
        lock.lock()
        events.append(event)
        lock.unlock()
    }

    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return events
    }
}
