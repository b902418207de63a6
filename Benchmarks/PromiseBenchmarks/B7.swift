// B7: whenAll / when / all over 10,000 and 100,000 pending promises, resolved after they are combined. The ratio of
// the two runs shows whether the cost grows linearly with the number of promises. FBLStyle's `all` combines on a
// serial queue, as Google's does on its queue, so its row includes a block per input.

import Benchmark
import BoltsStyle
import Dispatch
import FBLStyle
import PromiseKitStyle

func registerCombinators() {
    for count in [10_000, 100_000] {
        Benchmark("B7 whenAll \(count) BoltsStyle", configuration: perBatch(seconds: 2, maxIterations: 50)) { _ in
            let sources = (0..<count).map { _ in BFTaskCompletionSource<Int>() }
            let all = BFTask.whenAllResult(sources.map(\.task))
            for source in sources { source.set(result: 1) }
            precondition(all.result?.count == count)
        }
        Benchmark("B7 whenAll \(count) PromiseKitStyle", configuration: perBatch(seconds: 2, maxIterations: 50)) { _ in
            let pairs = (0..<count).map { _ in PromiseKitStyle.Promise<Int>.pending() }
            let all = when(fulfilled: pairs.map(\.promise))
            for pair in pairs { pair.resolver.fulfill(1) }
            precondition((try? all.result?.get())?.count == count)
        }
        // Google's `all` observes each input on its queue (the main queue by default, which nothing serves here), so
        // the combining runs on the serial queue, a block per input, and the benchmark waits for its result there.
        let combined = DispatchSemaphore(value: 0)
        Benchmark("B7 whenAll \(count) FBLStyle", configuration: perBatch(seconds: 2, maxIterations: 50)) { _ in
            let promises = (0..<count).map { _ in FBLStyle.Promise<Int>.pending() }
            let all = FBLStyle.all(on: serialQueue, promises)
            for promise in promises { promise.fulfill(1) }
            all.then(on: serialQueue) { (values: [Int]) in
                precondition(values.count == count)
                combined.signal()
            }
            combined.wait()
        }
    }
}
