// B4: 10,000 pending promises with one chained block each on a concurrent queue, all resolved, until every block ran.
// Baseline: 10,000 `DispatchQueue.async(group:)` calls on a concurrent queue joined by the group.
// The styles' blocks leave a group entered before chaining (an enter/leave pair, as `async(group:)` does itself).
// PromiseKitStyle is also timed ending each chain with `cauterize()`, as PromiseKit code does ("B4 PromiseKitStyle
// cauterize").
// Each batch is written once and timed alone ("B4 BoltsStyle") and paired with the baseline ("B4 BoltsStyle paired").

import Benchmark
import BoltsStyle
import Dispatch
import Operations

let b4Count = 10_000

/// One B4 batch per contender, the baseline first (the batches are `Operations`' `FanOut`, which B8 runs too).
func fanOutOperations() -> [(contender: String, operation: Operation)] {
    let queue = concurrentQueue
    let group = DispatchGroup()
    let executor = BFExecutor.queue(queue)
    func batch(_ start: @escaping @Sendable () -> Void) -> Operation {
        {
            start()
            group.wait()
        }
    }
    return [
        (plainGCD, batch { FanOut.gcd(b4Count, on: queue, group: group) }),
        ("BoltsStyle", batch { FanOut.bolts(b4Count, on: executor, group: group) }),
        ("PromiseKitStyle", batch { FanOut.promiseKit(b4Count, on: queue, group: group, cauterize: false) }),
        (pkCauterized, batch { FanOut.promiseKit(b4Count, on: queue, group: group, cauterize: true) }),
        ("FBLStyle", batch { FanOut.fbl(b4Count, on: queue, group: group) }),
    ]
}

func registerFanOut() {
    let operations = fanOutOperations()
    for (contender, operation) in operations {
        Benchmark("B4 \(contender)", configuration: perBatch()) { _ in operation() }
    }
    let baseline = operations.filter { $0.contender == plainGCD }
    for (contender, operation) in operations where contender != plainGCD {
        registerPaired("B4 \(contender)", subject: operation, baselines: baseline, repetitions: 1, seconds: 3)
    }
}
