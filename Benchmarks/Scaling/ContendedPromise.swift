// B8 "contended": one pending promise, `contendedHandlers` handlers registered on it from T threads at once. Only the
// registration is timed: it is where the threads meet, at the promise's lock or barrier. Then the promise is settled
// and every handler must have run once (not timed). Inline handlers where the style has them; FBLStyle's run on a
// concurrent queue. The floor is T threads appending closures to one array under one `Mutex`; GCD is T threads
// sending blocks to one serial queue that is held until they are done.

import BoltsStyle
import Dispatch
import FBLStyle
import Operations
import PromiseKitStyle
import Synchronization

/// The handlers of one run, over all threads.
let contendedHandlers = 40_000

/// Counts the handlers that ran, and traps unless it is `contendedHandlers`.
final class RunCount: Sendable {
    private let count = Atomic(0)
    func ran() { count.add(1, ordering: .relaxed) }
    func expectAll(_ contender: String) {
        let ran = count.load(ordering: .acquiring)
        precondition(ran == contendedHandlers, "\(contender): \(ran) of \(contendedHandlers) handlers ran")
    }
}

/// Times the registration of `contendedHandlers` handlers over `threads` threads (`register(index, count, ran)`),
/// then calls `settle` and checks that every handler ran.
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
    ran.expectAll(name)
    return time
}

let contendedPromise = Shape(
    id: "contended",
    summary: "\(contendedHandlers) handlers registered on one pending promise from every thread at once",
    operations: contendedHandlers, operation: "handlers",
    contenders: [
        Contender(name: floor) { threads in
            let handlers = Mutex<[() -> Void]>([])
            return timeRegistration(
                floor, threads,
                register: { index, count, ran in
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
            let group = DispatchGroup()
            queue.suspend()
            return timeRegistration(
                gcd, threads,
                register: { _, count, ran in
                    for _ in 0..<count { queue.async(group: group) { ran.ran() } }
                },
                settle: {
                    queue.resume()
                    group.wait()
                })
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
            let group = DispatchGroup()
            return timeRegistration(
                "FBLStyle", threads,
                register: { _, count, ran in
                    for _ in 0..<count {
                        group.enter()
                        promise.then(on: sharedConcurrentQueue) { (_: Int) in
                            ran.ran()
                            group.leave()
                        }
                    }
                },
                settle: {
                    promise.fulfill(1)
                    group.wait()
                })
        },
    ])
