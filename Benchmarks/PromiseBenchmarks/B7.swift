// B7: whenAll / when / all over 10,000 and 100,000 pending promises, resolved after they are combined. The ratio of
// the two runs shows whether the cost grows linearly with the number of promises.

import Benchmark
import BoltsStyle
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
        Benchmark("B7 whenAll \(count) FBLStyle", configuration: perBatch(seconds: 2, maxIterations: 50)) { _ in
            let promises = (0..<count).map { _ in FBLStyle.Promise<Int>.pending() }
            let combined = FBLStyle.all(promises)
            for promise in promises { promise.fulfill(1) }
            precondition(combined.value?.count == count)
        }
    }
}
