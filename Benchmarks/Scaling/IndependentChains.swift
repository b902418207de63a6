// B8 "independent": each thread its own chains. A thread builds a chain of `chainLength` steps on a pending root, then
// settles the root and waits for the chain's end, over and over; nothing is shared between threads but the allocator
// (and, for FBLStyle, its process-wide dispatch group). Inline handlers where the style has them; FBLStyle's steps run
// on the thread's own serial queue, back to back, as in B6.

import BoltsStyle
import Dispatch
import FBLStyle
import Operations
import PromiseKitStyle

/// The steps of each chain.
let chainLength = 100
/// The steps of one run, over all threads.
let independentSteps = 200_000
/// The chains of one run, over all threads.
let independentChainCount = independentSteps / chainLength

let independentChains = Shape(
    id: "independent",
    summary: "each thread builds chains of \(chainLength) steps on its own pending roots and settles them",
    operations: independentSteps, operation: "steps",
    contenders: [
        Contender(name: floor) { threads in
            // The B5 floor per step: allocate an object holding a closure, call it.
            timeThreads(threads) { index in
                for _ in 0..<share(of: independentSteps, threads: threads, index: index) {
                    callStored(makeFloorObject { sink($0) }, 1)
                }
            }
        },
        Contender(name: gcd) { threads in
            // Per chain, `chainLength` blocks on the thread's own serial queue, held until the chain is built.
            let queues = (0..<threads).map { DispatchQueue(label: "B8.independent.\($0)") }
            return timeThreads(threads) { index in
                let queue = queues[index]
                let group = DispatchGroup()
                for _ in 0..<share(of: independentChainCount, threads: threads, index: index) {
                    queue.suspend()
                    for _ in 0..<chainLength { queue.async(group: group) { sink(1) } }
                    queue.resume()
                    group.wait()
                }
            }
        },
        Contender(name: "BoltsStyle") { threads in
            timeThreads(threads) { index in
                for _ in 0..<share(of: independentChainCount, threads: threads, index: index) {
                    let source = BFTaskCompletionSource<Int>()
                    var task = source.task
                    for _ in 0..<chainLength { task = task.continueOnSuccessWith(.immediate) { $0 + 1 } }
                    source.set(result: 0)
                    precondition(task.result == chainLength)
                }
            }
        },
        Contender(name: "PromiseKitStyle") { threads in
            timeThreads(threads) { index in
                for _ in 0..<share(of: independentChainCount, threads: threads, index: index) {
                    let (root, resolver) = PromiseKitStyle.Promise<Int>.pending()
                    var promise = root
                    for _ in 0..<chainLength { promise = promise.map(on: nil) { $0 + 1 } }
                    resolver.fulfill(0)
                    precondition((try? promise.result?.get()) == chainLength)
                }
            }
        },
        Contender(name: "FBLStyle") { threads in
            let queues = (0..<threads).map { DispatchQueue(label: "B8.independent.fbl.\($0)") }
            return timeThreads(threads) { index in
                let queue = queues[index]
                let done = DispatchSemaphore(value: 0)
                for _ in 0..<share(of: independentChainCount, threads: threads, index: index) {
                    let root = FBLStyle.Promise<Int>.pending()
                    var promise = root
                    for _ in 0..<chainLength { promise = promise.then(on: queue) { (value: Int) -> Int in value + 1 } }
                    promise.then(on: queue) { (value: Int) in
                        precondition(value == chainLength)
                        done.signal()
                    }
                    root.fulfill(0)
                    done.wait()
                }
            }
        },
    ])
