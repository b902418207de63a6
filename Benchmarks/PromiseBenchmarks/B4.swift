// B4: 10,000 pending promises with one chained block each on a concurrent queue, all resolved, until every block ran.
// Baseline: 10,000 `DispatchQueue.async(group:)` calls on a concurrent queue joined by the group.
// The styles' blocks leave a group entered before chaining (an enter/leave pair, as `async(group:)` does itself).

import Benchmark
import BoltsStyle
import Dispatch
import FBLStyle
import PromiseKitStyle

let b4Count = 10_000

func registerFanOut() {
    let queue = concurrentQueue
    let group = DispatchGroup()

    Benchmark("B4 GCD", configuration: perBatch()) { benchmark in
        for _ in 0..<b4Count {
            queue.async(group: group) { blackHole(1) }
        }
        group.wait()
    }

    let executor = BFExecutor.queue(queue)
    Benchmark("B4 BoltsStyle", configuration: perBatch()) { benchmark in
        var sources: [BFTaskCompletionSource<Int>] = []
        sources.reserveCapacity(b4Count)
        for _ in 0..<b4Count {
            let source = BFTaskCompletionSource<Int>()
            group.enter()
            source.task.continueOnSuccessWith(executor) { value in
                blackHole(value)
                group.leave()
            }
            sources.append(source)
        }
        for source in sources { source.set(result: 1) }
        group.wait()
    }

    Benchmark("B4 PromiseKitStyle", configuration: perBatch()) { benchmark in
        var resolvers: [PromiseKitStyle.Resolver<Int>] = []
        resolvers.reserveCapacity(b4Count)
        for _ in 0..<b4Count {
            let (promise, resolver) = PromiseKitStyle.Promise<Int>.pending()
            group.enter()
            _ = promise.done(on: queue) { value in
                blackHole(value)
                group.leave()
            }
            resolvers.append(resolver)
        }
        for resolver in resolvers { resolver.fulfill(1) }
        group.wait()
    }

    Benchmark("B4 FBLStyle", configuration: perBatch()) { benchmark in
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
}
