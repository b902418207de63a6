// What each toy's header comment and its DocC article say it does, checked by order and counts: where a continuation
// runs, that the first settlement wins, that callbacks keep their order while the settling thread drains them, and what
// the Google toy's group counts.
import Dispatch
import TestSupport
import Testing

@testable import ToyModels

/// A serial queue that can be held shut: blocks sent to it wait until `open()`, so a test can check that a block has
/// not run yet without depending on timing.
private final class HeldQueue: Sendable {
    let queue = DispatchQueue(label: "held")
    private let gate = DispatchSemaphore(value: 0)
    private let key = DispatchSpecificKey<Bool>()

    init() {
        queue.setSpecific(key: key, value: true)
        queue.async { [gate] in gate.wait() }
    }

    var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == true }

    func open() { gate.signal() }
}

/// Waits (on this thread) for `count` signals of `done`, at most the hang guard each.
private func wait(_ done: DispatchSemaphore, _ count: Int = 1) {
    for _ in 0..<count {
        #expect(done.wait(timeout: .now() + TestEnvironment.hangGuard) == .success)
    }
}

@Suite(.offThePool) struct ToyTaskBehaviour {
    @Test func immediateRunsInsideTrySetAndInsideContinueWith() {
        let log = Locked<[String]>([])
        let task = ToyTask<Int>()
        _ = task.continueWith(.immediate) { _ in
            log.withLock { $0.append("on pending") }
            return ToyTask(.success(0))
        }
        log.withLock { $0.append("set") }
        #expect(task.trySet(.success(1)))
        log.withLock { $0.append("set returned") }
        _ = task.continueWith(.immediate) { _ in
            log.withLock { $0.append("on completed") }
            return ToyTask(.success(0))
        }
        log.withLock { $0.append("continueWith returned") }
        #expect(log.withLock { $0 } == ["set", "on pending", "set returned", "on completed", "continueWith returned"])
    }

    @Test func aQueueExecutorRunsTheBlockOnItsQueueLater() {
        let held = HeldQueue()
        let ran = Locked<[Bool]>([])
        let done = DispatchSemaphore(value: 0)
        _ = ToyTask<Int>(.success(1)).continueWith(.queue(held.queue)) { _ in
            ran.withLock { $0.append(held.isCurrent) }
            done.signal()
            return ToyTask(.success(0))
        }
        #expect(ran.withLock { $0 }.isEmpty)
        held.open()
        wait(done)
        #expect(ran.withLock { $0 } == [true])
    }

    @Test func theFirstCompletionWinsAndTheDerivedTaskFollowsTheReturnedOne() {
        let task = ToyTask<Int>()
        let returned = ToyTask<Int>()
        let seen = Locked<[Int]>([])
        let derived = task.continueWith(.immediate) { _ in returned }
        _ = derived.continueWith(.immediate) { outcome in
            seen.withLock { $0.append((try? outcome.get()) ?? -1) }
            return ToyTask(.success(0))
        }
        #expect(task.trySet(.success(1)))
        #expect(!task.trySet(.success(2)))
        #expect(seen.withLock { $0 }.isEmpty)  // the derived task waits for the one the block returned
        returned.trySet(.success(3))
        #expect(seen.withLock { $0 } == [3])
    }

    @Test func aContinuationAddedWhileDrainingRunsAfterTheOthers() {
        let task = ToyTask<Int>()
        let order = Locked<[Int]>([])
        @Sendable func record(_ number: Int) -> @Sendable (Result<Int, any Error>) -> ToyTask<Int> {
            { _ in
                order.withLock { $0.append(number) }
                return ToyTask(.success(number))
            }
        }
        _ = task.continueWith(.immediate) { outcome in
            _ = task.continueWith(.immediate, record(3))  // added from a callback, while the task drains
            return record(1)(outcome)
        }
        _ = task.continueWith(.immediate, record(2))
        task.trySet(.success(0))
        #expect(order.withLock { $0 } == [1, 2, 3])
    }
}

@Suite(.offThePool) struct QueueBoxBehaviour {
    @Test func aHandlerPipedFromAHandlerRunsAfterTheOthers() {
        let box = QueueBox<Int>()
        var order: [Int] = []
        box.pipe { _ in
            box.pipe { _ in order.append(3) }  // the box is draining: appended, run by the sealing thread next
            order.append(1)
        }
        box.pipe { _ in order.append(2) }
        box.seal(0)
        #expect(order == [1, 2, 3])
    }

    @Test func thenRunsTheBodyOnItsQueueAndSealsWithTheBoxItReturns() {
        let held = HeldQueue()
        let source = QueueBox<Int>()
        let returned = QueueBox<Int>()
        let ranOnQueue = Locked<[Bool]>([])
        let done = DispatchSemaphore(value: 0)
        let next = source.then(on: held.queue) { _ in
            ranOnQueue.withLock { $0.append(held.isCurrent) }
            done.signal()
            return returned
        }
        source.seal(1)
        #expect(ranOnQueue.withLock { $0 }.isEmpty)  // not inside seal: the body waits for its queue
        held.open()
        wait(done)
        #expect(ranOnQueue.withLock { $0 } == [true])
        held.queue.sync {}  // the body has returned `returned`, and `next` is piped to it
        #expect(next.value == nil)
        returned.seal(2)
        #expect(next.value == 2)
    }
}

/// Serialized: `waitForToyPromises` waits on one group for the whole process, so no other test may hold a toy promise
/// meanwhile (the conformance suite runs the toys in child processes).
@Suite(.serialized, .offThePool) struct ToyPromiseBehaviour {
    @Test func aBlockNeverRunsInsideThenNorInsideResolve() {
        let held = HeldQueue()
        let ran = Locked<[String]>([])
        let done = DispatchSemaphore(value: 0)
        let pending = ToyPromise<Int>()
        for promise in [ToyPromise<Int>(.success(1)), pending] {
            _ = promise.then(on: held.queue) { outcome in
                ran.withLock { $0.append(held.isCurrent ? "on the queue" : "elsewhere") }
                done.signal()
                return ToyPromise(outcome)
            }
        }
        pending.resolve(.success(2))
        #expect(ran.withLock { $0 }.isEmpty)
        held.open()
        wait(done, 2)
        #expect(ran.withLock { $0 } == ["on the queue", "on the queue"])
        #expect(waitForToyPromises(timeout: TestEnvironment.hangGuard))
    }

    @Test func theGroupCountsPendingPromisesAndBlocksInFlight() {
        let held = HeldQueue()
        let seen = Locked<[Int]>([])
        let pending = ToyPromise<Int>()
        #expect(!waitForToyPromises(timeout: 0))  // a pending promise is inside the group
        _ = pending.then(on: held.queue) { outcome in
            seen.withLock { $0.append((try? outcome.get()) ?? -1) }
            return ToyPromise(outcome)
        }
        pending.resolve(.success(1))
        #expect(!waitForToyPromises(timeout: 0))  // its block is queued, and the chained promise pending
        held.open()
        #expect(waitForToyPromises(timeout: TestEnvironment.hangGuard))
        #expect(seen.withLock { $0 } == [1])
    }

    @Test func aPendingPromiseThatIsFreedLeavesTheGroup() {
        var pending: ToyPromise<Int>? = ToyPromise<Int>()
        #expect(!waitForToyPromises(timeout: 0))
        withExtendedLifetime(pending) {}
        pending = nil
        #expect(waitForToyPromises(timeout: TestEnvironment.hangGuard))
    }
}
