// B5: the promise machinery alone: a pending promise, one handler that runs inline, resolve.
// Floor: allocate one object and call one closure stored in it.
// FBLStyle has no inline handler (every block hops to its queue): its row includes one hop and a semaphore wait.

import Benchmark
import BoltsStyle
import Dispatch
import FBLStyle
import Operations
import PromiseKitStyle

func registerMachinery() {
    Benchmark("B5 floor", configuration: perOperation) { benchmark in
        for _ in benchmark.scaledIterations {
            let object = makeFloorObject { value in blackHole(value) }
            callStored(object, 1)
        }
    }

    // Not a baseline: the least any Bolts-like API can allocate here, since `continue…` returns a new task.
    Benchmark("B5 floor with two objects", configuration: perOperation) { benchmark in
        for _ in benchmark.scaledIterations {
            let object = makeFloorObject { value in blackHole(value) }
            object.next = makeFloorObject { value in blackHole(value) }
            callStored(object, 1)
        }
    }

    Benchmark("B5 BoltsStyle", configuration: perOperation) { benchmark in
        for _ in benchmark.scaledIterations {
            let source = BFTaskCompletionSource<Int>()
            source.task.continueOnSuccessWith(.immediate) { value in blackHole(value) }
            source.set(result: 1)
        }
    }

    Benchmark("B5 PromiseKitStyle", configuration: perOperation) { benchmark in
        for _ in benchmark.scaledIterations {
            let (promise, resolver) = PromiseKitStyle.Promise<Int>.pending()
            _ = promise.done(on: nil) { value in blackHole(value) }
            resolver.fulfill(1)
        }
    }

    // The same chain ended the way PromiseKit code ends one: `catch` adds the finalizer (target: 1.5x the row above).
    Benchmark("B5 PromiseKitStyle catch", configuration: perOperation) { benchmark in
        for _ in benchmark.scaledIterations {
            let (promise, resolver) = PromiseKitStyle.Promise<Int>.pending()
            promise.done(on: nil) { value in blackHole(value) }.catch(on: nil) { error in blackHole(error) }
            resolver.fulfill(1)
        }
    }

    let semaphore = DispatchSemaphore(value: 0)
    Benchmark("B5 FBLStyle", configuration: perOperation) { benchmark in
        for _ in benchmark.scaledIterations {
            let promise = FBLStyle.Promise<Int>.pending()
            promise.then(on: serialQueue) { (value: Int) in
                blackHole(value)
                semaphore.signal()
            }
            promise.fulfill(1)
            semaphore.wait()
        }
    }
}
