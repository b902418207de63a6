// B4: 10,000 pending promises with one chained block each on a concurrent queue, all resolved, until every block ran.
// Baseline: 10,000 `DispatchQueue.async(group:)` calls on a concurrent queue joined by the group.
// The styles' blocks leave a group entered before chaining (an enter/leave pair, as `async(group:)` does itself).
// PromiseKitStyle is also timed ending each chain with `cauterize()`, as PromiseKit code does ("B4 PromiseKitStyle
// cauterize").
// Each batch is written once and timed alone ("B4 BoltsStyle") and paired with the baseline ("B4 BoltsStyle paired").

import Benchmark
import BoltsStyle
import Dispatch
import FBLStyle
import PromiseKitStyle

let b4Count = 10_000

/// One B4 batch per contender, the baseline first.
func fanOutOperations() -> [(contender: String, operation: Operation)] {
    let queue = concurrentQueue
    let group = DispatchGroup()
    let executor = BFExecutor.queue(queue)
    return [
        (
            plainGCD,
            {
                for _ in 0..<b4Count {
                    queue.async(group: group) { blackHole(1) }
                }
                group.wait()
            }
        ),
        (
            "BoltsStyle",
            {
                var sources: [BFTaskCompletionSource<Int>] = []
                sources.reserveCapacity(b4Count)
                for _ in 0..<b4Count {
                    let source = BFTaskCompletionSource<Int>()
                    group.enter()
                    source.task.continueOnSuccessWith(executor) {
                        blackHole($0)
                        group.leave()
                    }
                    sources.append(source)
                }
                for source in sources { source.set(result: 1) }
                group.wait()
            }
        ),
        (
            "PromiseKitStyle",
            {
                var resolvers: [PromiseKitStyle.Resolver<Int>] = []
                resolvers.reserveCapacity(b4Count)
                for _ in 0..<b4Count {
                    let (promise, resolver) = PromiseKitStyle.Promise<Int>.pending()
                    group.enter()
                    _ = promise.done(on: queue) {
                        blackHole($0)
                        group.leave()
                    }
                    resolvers.append(resolver)
                }
                for resolver in resolvers { resolver.fulfill(1) }
                group.wait()
            }
        ),
        (
            pkCauterized,
            {
                var resolvers: [PromiseKitStyle.Resolver<Int>] = []
                resolvers.reserveCapacity(b4Count)
                for _ in 0..<b4Count {
                    let (promise, resolver) = PromiseKitStyle.Promise<Int>.pending()
                    group.enter()
                    promise.done(on: queue) {
                        blackHole($0)
                        group.leave()
                    }.cauterize()
                    resolvers.append(resolver)
                }
                for resolver in resolvers { resolver.fulfill(1) }
                group.wait()
            }
        ),
        (
            "FBLStyle",
            {
                var promises: [FBLStyle.Promise<Int>] = []
                promises.reserveCapacity(b4Count)
                for _ in 0..<b4Count {
                    let promise = FBLStyle.Promise<Int>.pending()
                    group.enter()
                    promise.then(on: queue) { (value: Int) in
                        blackHole(value)
                        group.leave()
                    }
                    promises.append(promise)
                }
                for promise in promises { promise.fulfill(1) }
                group.wait()
            }
        ),
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
