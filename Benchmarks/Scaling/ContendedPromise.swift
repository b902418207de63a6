// B8 "contended": one pending promise, `contendedHandlers` handlers registered on it from T threads at once. Only the
// registration is timed: it is where the threads meet, at the promise's lock or barrier. Then the promise is settled
// and every handler must have run once (not timed). Inline handlers where the style has them; FBLStyle's run on a
// concurrent queue. The floor is T threads appending closures to one array under a spinning lock (LockedArray.swift);
// "Mutex" is the same under Synchronization's `Mutex`, whose contended unlock hands the lock over in the kernel. GCD is
// T threads sending blocks to one serial queue that is held until they are done.

import BoltsStyle
import Dispatch
import FBLStyle
import Operations
import PromiseKitStyle
import Synchronization

/// The handlers of one run, over all threads.
let contendedHandlers = 40_000

/// Counts the handlers that ran; the last of `contendedHandlers` lets `waitForAll` return.
final class RunCount: Sendable {
    private let count = Atomic(0)
    private let allRan = DispatchSemaphore(value: 0)

    func ran() {
        if count.add(1, ordering: .acquiringAndReleasing).newValue == contendedHandlers { allRan.signal() }
    }

    /// Waits until `contendedHandlers` handlers ran; traps if they have not within a minute, or if more ran.
    func waitForAll(_ contender: String) {
        let inTime = allRan.wait(timeout: .now() + 60) == .success
        let ran = count.load(ordering: .acquiring)
        precondition(inTime && ran == contendedHandlers, "\(contender): \(ran) of \(contendedHandlers) handlers ran")
    }
}

/// Times the registration of `contendedHandlers` handlers over `threads` threads (`register(index, count, ran)`),
/// then calls `settle` and waits until every handler ran.
func timeRegistration(
    _ name: String, _ threads: Int,
    register: @escaping @Sendable (_ index: Int, _ count: Int, _ ran: RunCount) -> Void,
    settle: () -> Void
) -> UInt64 {
    let ran = RunCount()
    let time = timeThreads(threads) { index in
        register(index, share(of: contendedHandlers, threads: threads, index: index), ran)
    }
    settle()
    ran.waitForAll(name)
    return time
}

let contendedPromise = Shape(
    id: "contended",
    summary: "\(contendedHandlers) handlers registered on one pending promise from every thread at once",
    operations: contendedHandlers, operation: "handlers",
    contenders: [
        Contender(name: floor) { threads in
            let handlers = LockedArray<() -> Void>()
            return timeRegistration(
                floor, threads,
                register: { _, count, ran in
                    for step in 0..<count {
                        handlers.append {
                            sink(step)
                            ran.ran()
                        }
                    }
                },
                settle: { for handler in handlers.all { handler() } })
        },
        Contender(name: "Mutex") { threads in
            let handlers = Mutex<[() -> Void]>([])
            return timeRegistration(
                "Mutex", threads,
                register: { _, count, ran in
                    for step in 0..<count {
                        handlers.withLock {
                            $0.append {
                                sink(step)
                                ran.ran()
                            }
                        }
                    }
                },
                settle: { for handler in handlers.withLock({ $0 }) { handler() } })
        },
        Contender(name: gcd) { threads in
            let queue = DispatchQueue(label: "B8.contended")
            queue.suspend()
            return timeRegistration(
                gcd, threads,
                register: { _, count, ran in
                    for _ in 0..<count { queue.async { ran.ran() } }
                },
                settle: { queue.resume() })
        },
        Contender(name: "BoltsStyle") { threads in
            let source = BFTaskCompletionSource<Int>()
            let task = source.task
            return timeRegistration(
                "BoltsStyle", threads,
                register: { _, count, ran in
                    for _ in 0..<count { task.continueOnSuccessWith(.immediate) { _ in ran.ran() } }
                },
                settle: { source.set(result: 1) })
        },
        Contender(name: "PromiseKitStyle") { threads in
            let (promise, resolver) = PromiseKitStyle.Promise<Int>.pending()
            return timeRegistration(
                "PromiseKitStyle", threads,
                register: { _, count, ran in
                    for _ in 0..<count { _ = promise.done(on: nil) { _ in ran.ran() } }
                },
                settle: { resolver.fulfill(1) })
        },
        Contender(name: "FBLStyle") { threads in
            let promise = FBLStyle.Promise<Int>.pending()
            return timeRegistration(
                "FBLStyle", threads,
                register: { _, count, ran in
                    for _ in 0..<count {
                        promise.then(on: sharedConcurrentQueue) { (_: Int) in ran.ran() }
                    }
                },
                settle: { promise.fulfill(1) })
        },
    ])
