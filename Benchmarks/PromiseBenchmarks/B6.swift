// B6: a chain of 1,000,000 steps built on a pending root and then resolved at the root (inline handlers where the
// style has them, FBLStyle on the serial queue, whose worker then runs the steps back to back).
// Baseline: 1,000,000 times the B5 floor (allocate an object, call its stored closure).

import Benchmark
import BoltsStyle
import Dispatch
import FBLStyle
import Operations
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
}
