import Dispatch
import Foundation
import TestSupport
import Testing

@testable import PromiseKitStyle

private let queueKey = DispatchSpecificKey<String>()

/// A serial queue that `currentQueueName()` recognizes by `name`.
private func namedQueue(_ name: String) -> DispatchQueue {
    let queue = DispatchQueue(label: name)
    queue.setSpecific(key: queueKey, value: name)
    return queue
}

/// The name of the `namedQueue` the caller runs on, or "?".
private func currentQueueName() -> String { DispatchQueue.getSpecific(key: queueKey) ?? "?" }

/// Everything that reads or writes the global `conf`, or raises log events (which land in `conf.logHandler`), lives
/// here: the suite runs serially, and each test restores `conf`.
@Suite("Global configuration and log events", .serialized)
struct ConfigurationTests {
    /// Runs `body` holding the process-wide test lock, and restores `conf` afterwards: the differential replay points
    /// `conf.Q` at its own queues while it holds that lock, and must not see another test's writes meanwhile.
    private func changingConf(_ body: @Sendable () async throws -> Void) async rethrows {
        try await ProcessWideTestLock.withLock(.brief) {
            let saved = conf
            defer { conf = saved }
            try await body()
        }
    }

    @Test func defaultsArePromiseKits() {
        let defaults = PMKConfiguration()
        // On Linux each `DispatchQueue.main` access makes a new wrapper of the same queue: compare labels.
        #expect(defaults.Q.map?.label == DispatchQueue.main.label)
        #expect(defaults.Q.return?.label == DispatchQueue.main.label)
        #expect(defaults.catchPolicy == .allErrorsExceptCancellation)
        // The default handler prints these lines, PromiseKit 8's (checked here rather than printed among the results).
        #expect(defaultLogMessage(.cauterized(TestError(code: 1))) == "PromiseKit:cauterized-error: TestError(code: 1)")
        #expect(defaultLogMessage(.waitOnMainThread) == "PromiseKit: warning: `wait()` called on main thread!")
        #expect(defaultLogMessage(.pendingPromiseDeallocated) == "PromiseKit: warning: pending promise deallocated")
        #expect(defaultLogMessage(.pendingGuaranteeDeallocated) == "PromiseKit: warning: pending guarantee deallocated")
    }

    @Test func handlersDefaultToConfQ() async throws {
        try await changingConf {
            conf.Q = (map: namedQueue("map"), return: namedQueue("return"))
            let events = EventLog()
            let value = try await Promise.value(1)
                .map { value -> Int in
                    events.add("map on \(currentQueueName())")
                    return value
                }
                .get { _ in events.add("get on \(currentQueueName())") }
                .async()
            #expect(value == 1)
            await Guarantee.value(1).done { _ in events.add("done on \(currentQueueName())") }
                .async()
            #expect(events.all == ["map on map", "get on return", "done on return"])
        }
    }

    @Test func nilConfQRunsInline() async {
        await changingConf {
            conf.Q = (map: nil, return: nil)
            nonisolated(unsafe) var ran = false
            _ = Promise.value(1).done { _ in ran = true }
            #expect(ran)
        }
    }

    @Test func catchPolicyDefaultComesFromConf() async {
        await changingConf {
            conf.catchPolicy = .allErrors
            let events = EventLog()
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                Promise<Int>(error: PMKError.cancelled)
                    .catch(on: testQueue) { _ in events.add("caught cancellation") }
                    .finally(on: testQueue) { continuation.resume() }
            }
            #expect(events.all == ["caught cancellation"])
        }
    }

    @Test func catchAndFinallyDefaultsFollowLaterConfWrites() async {
        await changingConf {
            let events = EventLog()
            func catchCancellation() async {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    Promise<Int>(error: PMKError.cancelled)
                        .catch { _ in events.add("caught cancellation on \(currentQueueName())") }
                        .finally {
                            events.add("finally on \(currentQueueName())")
                            continuation.resume()
                        }
                }
            }
            conf.Q = (map: nil, return: namedQueue("first"))
            conf.catchPolicy = .allErrors
            await catchCancellation()
            conf.Q = (map: nil, return: namedQueue("second"))
            conf.catchPolicy = .allErrorsExceptCancellation
            await catchCancellation()
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                Promise<Int>(error: TestError(code: 2))
                    .catch { events.add("caught \(($0 as? TestError)?.code ?? 0) on \(currentQueueName())") }
                    .finally(on: nil) { continuation.resume() }
            }
            #expect(
                events.all == [
                    "caught cancellation on first", "finally on first", "finally on second", "caught 2 on second",
                ])
        }
    }

    @Test func recoverAndEnsureDefaultsFollowLaterConfWrites() async throws {
        try await changingConf {
            let events = EventLog()
            conf.Q = (map: namedQueue("map"), return: namedQueue("return"))
            conf.catchPolicy = .allErrors
            let recovered = try await Promise<Int>(error: PMKError.cancelled)
                .recover { _ -> Promise<Int> in
                    events.add("recover on \(currentQueueName())")
                    return .value(1)
                }
                .ensure { events.add("ensure on \(currentQueueName())") }
                .async()
            #expect(recovered == 1)
            conf.catchPolicy = .allErrorsExceptCancellation
            await #expect(throws: PMKError.self) {
                try await Promise<Int>(error: PMKError.cancelled)
                    .recover { _ -> Promise<Int> in
                        events.add("recovered a cancellation")
                        return .value(2)
                    }
                    .async()
            }
            #expect(events.all == ["recover on map", "ensure on return"])
        }
    }

    @Test(.offThePool) func readsRacingWritesSeeAWholeConfiguration() async {
        await changingConf {
            let saved = conf
            let writes = 2_000
            let mismatches = Locked(0)
            // Writers publish configurations equal to the saved one (other suites of this process read `conf`
            // meanwhile); readers check that every read is that configuration. Under the thread sanitizer this is the
            // test of the publication protocol.
            DispatchQueue.concurrentPerform(iterations: 4) { worker in
                for _ in 0..<writes {
                    if worker.isMultiple(of: 2) {
                        conf = saved
                        conf.catchPolicy = saved.catchPolicy
                    } else {
                        let read = conf
                        if read.Q.return !== saved.Q.return || read.Q.map !== saved.Q.map
                            || read.catchPolicy != saved.catchPolicy
                        {
                            mismatches.withLock { $0 += 1 }
                        }
                    }
                }
            }
            #expect(mismatches.withLock { $0 } == 0)
        }
    }

    @Test func doubleResolutionIsIgnoredAndReported() async {
        let events = await PromiseKitLog.record {
            let (promise, resolver) = Promise<Int>.pending()
            resolver.fulfill(1)
            resolver.reject(TestError())
            resolver.fulfill(2)
            #expect(promise.value == 1)
            let thrownAfterResolving = Promise<Int> { seal in
                seal.fulfill(3)
                throw TestError()
            }
            #expect(thrownAfterResolving.value == 3)
            let (guarantee, resolve) = Guarantee<Int>.pending()
            resolve(4)
            resolve(5)
            #expect(guarantee.value == 4)
            _ = Guarantee<Int> { seal in
                seal(6)
                seal(7)
            }
        }
        #expect(events == Array(repeating: "doubleResolution", count: 5))
    }

    @Test func pendingPromisesAndGuaranteesDeallocatedAreReported() async {
        let events = await PromiseKitLog.record {
            do { _ = Promise<Int>.pending() }
            do { _ = Promise<Int> { _ in } }
            do { _ = Guarantee<Int>.pending() }
            do { _ = Guarantee<Int> { _ in } }
            do {
                // Resolved ones, and pending ones made internally by a chain, are not reported.
                let (promise, resolver) = Promise<Int>.pending()
                resolver.fulfill(1)
                _ = promise
                let (never, _) = Guarantee<Int>.pending()
                _ = never.map(on: testQueue) { $0 }
            }
        }
        #expect(
            events == [
                "pendingPromiseDeallocated", "pendingPromiseDeallocated", "pendingGuaranteeDeallocated",
                "pendingGuaranteeDeallocated", "pendingGuaranteeDeallocated",
            ])
    }

    @Test func cauterizeLogsTheError() async {
        let events = await PromiseKitLog.record {
            conf.Q = (map: DispatchQueue.global(), return: DispatchQueue.global())
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                Promise<Int>(error: TestError(code: 5)).cauterize().finally { continuation.resume() }
            }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                Promise<Int>(error: PMKError.cancelled).cauterize().finally { continuation.resume() }
            }
        }
        #expect(events == ["cauterized TestError(code: 5)"])
    }

    @Test func cauterizeLogsOnTheReturnQueueThroughTheHandlerInForceWhenTheErrorArrives() async {
        let events = await PromiseKitLog.record {
            conf.Q = (map: nil, return: namedQueue("return"))
            let (promise, resolver) = Promise<Int>.pending()
            let finalizer = promise.cauterize()
            // Installed after `cauterize`, before the rejection: this is the handler that must receive the error.
            let later = EventLog()
            conf.logHandler = { event in
                guard case .cauterized(let error) = event else { return }
                later.add("cauterized \((error as? TestError)?.code ?? -1) on \(currentQueueName())")
            }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                finalizer.finally(on: testQueue) { continuation.resume() }
                resolver.reject(TestError(code: 8))
            }
            #expect(later.all == ["cauterized 8 on return"])
        }
        #expect(events.isEmpty)
    }

    @Test(.offThePool) func millionLinkPendingChainDeallocatesWithoutRecursion() async {
        let events = await PromiseKitLog.record {
            do {
                let (root, _) = Promise<Int>.pending()
                var tail = root
                for _ in 0..<LongChainTests.length { tail = tail.map(on: nil) { $0 + 1 } }
                #expect(tail.isPending)
            }  // root, resolver and the whole chain go away here
        }
        #expect(events == ["pendingPromiseDeallocated"])
    }

    @Test(.offThePool) func concurrentResolutionsOneWinsEveryHandlerRunsOnce() async {
        let rounds = stressRun ? 100_000 : 200
        let racers = 8
        let events = await PromiseKitLog.record {
            let handlersPerRound = 6
            for round in 0..<rounds {
                let (promise, resolver) = Promise<Int>.pending()
                let runs = Counter()
                let finished = DispatchGroup()
                for index in 0..<handlersPerRound / 2 {
                    finished.enter()
                    promise.pipe { _ in
                        runs.enter()
                        finished.leave()
                    }
                    finished.enter()
                    _ = promise.map(on: index.isMultiple(of: 2) ? concurrentQueue : nil) { _ in }.ensure(on: nil) {
                        runs.enter()
                        finished.leave()
                    }
                }
                DispatchQueue.concurrentPerform(iterations: racers + 2) { racer in
                    switch racer {
                    case racers:
                        // Register while the others resolve: must run exactly once too.
                        finished.enter()
                        promise.pipe { _ in
                            runs.enter()
                            finished.leave()
                        }
                    case racers + 1:
                        _ = promise.result  // a concurrent read
                    default:
                        if racer.isMultiple(of: 2) {
                            resolver.fulfill(racer)
                        } else {
                            resolver.reject(TestError(code: racer))
                        }
                    }
                }
                let completed = finished.wait(timeout: .now() + TestEnvironment.hangGuard)
                #expect(completed == .success, "round \(round)")
                #expect(runs.total == handlersPerRound + 1, "round \(round)")
                #expect(promise.isResolved)
            }
        }
        #expect(events.count == rounds * (racers - 1))
        #expect(Set(events) == ["doubleResolution"])
    }

    @Test func serverStyleConfigurationRunsTheClassicChain() async throws {
        let events = try await PromiseKitLog.record {
            conf.Q = (map: DispatchQueue.global(), return: DispatchQueue.global())
            let text = try await classicChain().async()
            #expect(text == "Hello, Ada! You have 3 new messages.")
            // The landing page's form: done and catch on the default queues.
            let log = EventLog()
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                classicChain().done { greeting in
                    log.add(greeting)
                }.catch { error in
                    log.add("failed: \(error)")
                }.finally {
                    continuation.resume()
                }
            }
            #expect(log.all == ["Hello, Ada! You have 3 new messages."])
        }
        #expect(events.isEmpty)
    }
}
