// B8 "shared-queue": B4 from T threads at once. Each thread makes its share of pending promises, each with one block
// on one concurrent queue that every thread shares, then settles them; the run ends when every block has run.

import BoltsStyle
import Dispatch
import Operations

/// The promises of one run, over all threads.
let sharedQueuePromises = 40_000

/// The concurrent queue every thread's blocks go to.
let sharedConcurrentQueue = DispatchQueue(label: "B8.shared", attributes: .concurrent)

/// Times `perThread(index, count, group)` on `threads` threads until `group` is empty: each thread enters the group
/// once per block it starts, and each block leaves it.
func timeUntilEveryBlockRan(
    _ threads: Int, _ perThread: @escaping @Sendable (_ index: Int, _ count: Int, _ group: DispatchGroup) -> Void
) -> UInt64 {
    let group = DispatchGroup()
    let work: @Sendable (Int) -> Void = { index in
        perThread(index, share(of: sharedQueuePromises, threads: threads, index: index), group)
    }
    return timeThreads(threads, until: { group.wait() }, work)
}

let sharedQueue = Shape(
    id: "shared-queue",
    summary: "each thread makes pending promises with one block each on one shared concurrent queue, then settles them",
    operations: sharedQueuePromises, operation: "promises",
    contenders: [
        Contender(name: gcd) { threads in
            timeUntilEveryBlockRan(threads) { _, count, group in
                FanOut.gcd(count, on: sharedConcurrentQueue, group: group)
            }
        },
        Contender(name: "BoltsStyle") { threads in
            let executor = BFExecutor.queue(sharedConcurrentQueue)
            return timeUntilEveryBlockRan(threads) { _, count, group in
                FanOut.bolts(count, on: executor, group: group)
            }
        },
        Contender(name: "PromiseKitStyle") { threads in
            timeUntilEveryBlockRan(threads) { _, count, group in
                FanOut.promiseKit(count, on: sharedConcurrentQueue, group: group, cauterize: false)
            }
        },
        Contender(name: "PromiseKitStyle cauterize") { threads in
            timeUntilEveryBlockRan(threads) { _, count, group in
                FanOut.promiseKit(count, on: sharedConcurrentQueue, group: group, cauterize: true)
            }
        },
        Contender(name: "FBLStyle") { threads in
            timeUntilEveryBlockRan(threads) { _, count, group in
                FanOut.fbl(count, on: sharedConcurrentQueue, group: group)
            }
        },
    ])
