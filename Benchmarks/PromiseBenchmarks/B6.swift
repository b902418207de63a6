// B6: a chain of 1,000,000 steps built on a pending root and then resolved at the root (inline handlers where the
// style has them, FBLStyle on the serial queue); and whenAll / when / all over 10,000 and 100,000 pending promises
// resolved afterwards (the ratio of the two shows whether the cost grows linearly).
// Baseline for the chain: 1,000,000 times the B5 floor (allocate an object, call its stored closure).

import Benchmark
import BoltsStyle
import Dispatch
import FBLStyle
import PromiseKitStyle

let chainLength = 1_000_000

func registerLong() {
    Benchmark("B6 chain floor", configuration: perBatch(seconds: 4, maxIterations: 20)) { benchmark in
        for _ in 0..<chainLength {
            let object = makeFloorObject { value in blackHole(value) }
            callStored(object, 1)
        }
    }

    Benchmark("B6 chain BoltsStyle", configuration: perBatch(seconds: 4, maxIterations: 20)) { benchmark in
        let source = BFTaskCompletionSource<Int>()
        var task = source.task
        for _ in 0..<chainLength {
            task = task.continueOnSuccessWith(.immediate) { value in value + 1 }
        }
        source.set(result: 0)
        precondition(task.result == chainLength)
    }

    Benchmark("B6 chain PromiseKitStyle", configuration: perBatch(seconds: 4, maxIterations: 20)) { benchmark in
        let (root, resolver) = PromiseKitStyle.Promise<Int>.pending()
        var promise = root
        for _ in 0..<chainLength {
            promise = promise.map(on: nil) { value in value + 1 }
        }
        resolver.fulfill(0)
        precondition((try? promise.result?.get()) == chainLength)
    }

    let semaphore = DispatchSemaphore(value: 0)
    Benchmark("B6 chain FBLStyle", configuration: perBatch(seconds: 4, maxIterations: 20)) { benchmark in
        let root = FBLStyle.Promise<Int>.pending()
        var promise = root
        for _ in 0..<chainLength {
            promise = promise.then(on: serialQueue) { (value: Int) -> Int in value + 1 }
        }
        promise.then(on: serialQueue) { (value: Int) in
            precondition(value == chainLength)
            semaphore.signal()
        }
        root.fulfill(0)
        semaphore.wait()
    }

    for count in [10_000, 100_000] {
        Benchmark("B6 whenAll \(count) BoltsStyle", configuration: perBatch(seconds: 2, maxIterations: 50)) { _ in
            let sources = (0..<count).map { _ in BFTaskCompletionSource<Int>() }
            let all = BFTask.whenAllResult(sources.map(\.task))
            for source in sources { source.set(result: 1) }
            precondition(all.result?.count == count)
        }
        Benchmark("B6 whenAll \(count) PromiseKitStyle", configuration: perBatch(seconds: 2, maxIterations: 50)) { _ in
            let pairs = (0..<count).map { _ in PromiseKitStyle.Promise<Int>.pending() }
            let all = when(fulfilled: pairs.map(\.promise))
            for pair in pairs { pair.resolver.fulfill(1) }
            precondition((try? all.result?.get())?.count == count)
        }
        Benchmark("B6 whenAll \(count) FBLStyle", configuration: perBatch(seconds: 2, maxIterations: 50)) { _ in
            let promises = (0..<count).map { _ in FBLStyle.Promise<Int>.pending() }
            let combined = FBLStyle.all(promises)
            for promise in promises { promise.fulfill(1) }
            precondition(combined.value?.count == count)
        }
    }
}
