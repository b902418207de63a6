// demo-deferred-drain-order: handlers of one Deferred on one serial queue run out of the order of their `upon` calls
// when one is added while `fill` is still handing the earlier ones to the queue (the suite's 2.2.6.2 "a handler added
// inside another handler runs after the others" and swift.concurrentRegistration). `fill` detaches the whole list of
// handlers and submits them one by one (DeferredQueue.swift:69-77); an `upon` in between finds the list empty and
// submits its handler at once (DeferredVariant.swift:101-106), ahead of those not yet submitted.
// Imports only the library (module Deferred) and Foundation/Dispatch.
import Deferred
import Foundation

/// Hands a deferred to another thread (`Deferred` is thread-safe, but not declared `Sendable`).
struct Shared<Value>: @unchecked Sendable { let value: Value }

/// A thread-safe log of handler labels.
final class Log: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [Int] = []
    func add(_ entry: Int) { lock.withLock { entries.append(entry) } }
    var snapshot: [Int] { lock.withLock { entries } }
}

/// An executor over a serial queue whose first `submit` returns only once the block it submitted has run: the
/// thread that calls `fill` then stalls between handing the first and the second handler to the queue, as a thread
/// the scheduler takes off its core at that moment does.
final class StallingExecutor: Executor, @unchecked Sendable {
    let queue = DispatchQueue(label: "serial")
    let firstDone = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var submissions = 0
    func submit(_ body: @escaping () -> Void) {
        let isFirst = lock.withLock { () -> Bool in
            submissions += 1
            return submissions == 1
        }
        let work = Shared(value: body)
        queue.async { work.value() }
        if isFirst { firstDone.wait() }
    }
}

/// Part A: handler 1 adds handler 3 while it runs; handler 2 was added before `fill`. Deterministic.
func partA() {
    let executor = StallingExecutor()
    let deferred = Deferred<Int>()
    let log = Log()
    let all = DispatchGroup()
    all.enter()
    all.enter()
    all.enter()
    deferred.upon(executor) { _ in
        log.add(1)
        deferred.upon(executor) { _ in
            log.add(3)
            all.leave()
        }
        all.leave()
        executor.firstDone.signal()
    }
    deferred.upon(executor) { _ in
        log.add(2)
        all.leave()
    }
    deferred.fill(with: 1)
    all.wait()
    print("part A (upon 1, upon 2, fill; handler 1 calls upon 3; one serial queue; fill's thread stalls after")
    print("        submitting handler 1): handlers ran as \(log.snapshot); A+ 2.2.6 expects [1, 2, 3]")
}

/// Part B: 100 runs on a plain serial `DispatchQueue`, no stall: 50 handlers added while pending, then another
/// thread adds 150 more while this one fills. Counts the runs whose handlers ran out of order.
func partB() {
    let queue = DispatchQueue(label: "plain serial")
    var outOfOrder = 0
    var firstBad: [Int] = []
    for _ in 0..<100 {
        let deferred = Deferred<Int>()
        let log = Log()
        let all = DispatchGroup()
        for index in 0..<200 {
            all.enter()
            _ = index
        }
        for index in 0..<50 {
            deferred.upon(queue) { _ in
                log.add(index)
                all.leave()
            }
        }
        let started = DispatchSemaphore(value: 0)
        let shared = Shared(value: deferred)
        let registrar = Thread {
            started.signal()
            for index in 50..<200 {
                shared.value.upon(queue) { _ in
                    log.add(index)
                    all.leave()
                }
            }
        }
        registrar.start()
        started.wait()
        deferred.fill(with: 1)
        all.wait()
        let order = log.snapshot
        if order != Array(0..<200) {
            outOfOrder += 1
            if firstBad.isEmpty, let at = order.indices.first(where: { order[$0] != $0 }) {
                firstBad = Array(order[max(0, at - 2)..<min(order.count, at + 4)])
            }
        }
    }
    print("part B (plain serial queue, 200 handlers from two threads in sequence per thread, fill racing the second")
    print(
        "        thread): handlers ran out of their upon order in \(outOfOrder) of 100 runs"
            + (firstBad.isEmpty ? "" : "; first such run, around the first misplaced handler: \(firstBad)"))
}

partA()
partB()
