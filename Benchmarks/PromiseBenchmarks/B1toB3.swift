// B1, B2, B3: a resolved promise, 1, 2 or 3 chained blocks on a serial queue, until the last block runs.
// Baselines: the same hops with plain `DispatchQueue.async`, and with `async`/`await`.

import Benchmark
import BoltsStyle
import Dispatch
import FBLStyle
import PromiseKitStyle

func registerHops() {
    let semaphore = DispatchSemaphore(value: 0)
    let queue = serialQueue
    let hop = Hop()

    // MARK: plain GCD: N nested `async` calls, the last one signals.

    Benchmark("B1 GCD", configuration: perOperation) { benchmark in
        for _ in benchmark.scaledIterations {
            let value = 1
            queue.async {
                blackHole(value)
                semaphore.signal()
            }
            semaphore.wait()
        }
    }
    Benchmark("B2 GCD", configuration: perOperation) { benchmark in
        for _ in benchmark.scaledIterations {
            let value = 1
            queue.async {
                let second = value + 1
                queue.async {
                    blackHole(second)
                    semaphore.signal()
                }
            }
            semaphore.wait()
        }
    }
    Benchmark("B3 GCD", configuration: perOperation) { benchmark in
        for _ in benchmark.scaledIterations {
            let value = 1
            queue.async {
                let second = value + 1
                queue.async {
                    let third = second + 1
                    queue.async {
                        blackHole(third)
                        semaphore.signal()
                    }
                }
            }
            semaphore.wait()
        }
    }

    // MARK: async/await: an unstructured Task runs the first block, each further block is an awaited actor call.

    Benchmark("B1 async/await", configuration: perOperation) { benchmark in
        for _ in benchmark.scaledIterations {
            let value = 1
            Task {
                blackHole(value)
                semaphore.signal()
            }
            semaphore.wait()
        }
    }
    Benchmark("B2 async/await", configuration: perOperation) { benchmark in
        for _ in benchmark.scaledIterations {
            let value = 1
            Task {
                let second = await hop.step(value)
                blackHole(second)
                semaphore.signal()
            }
            semaphore.wait()
        }
    }
    Benchmark("B3 async/await", configuration: perOperation) { benchmark in
        for _ in benchmark.scaledIterations {
            let value = 1
            Task {
                let second = await hop.step(value)
                let third = await hop.step(second)
                blackHole(third)
                semaphore.signal()
            }
            semaphore.wait()
        }
    }

    // MARK: BoltsStyle: continuations on `.queue(serialQueue)`.

    let executor = BFExecutor.queue(queue)
    Benchmark("B1 BoltsStyle", configuration: perOperation) { benchmark in
        for _ in benchmark.scaledIterations {
            BFTask(1).continueOnSuccessWith(executor) { value in
                blackHole(value)
                semaphore.signal()
            }
            semaphore.wait()
        }
    }
    Benchmark("B2 BoltsStyle", configuration: perOperation) { benchmark in
        for _ in benchmark.scaledIterations {
            BFTask(1).continueOnSuccessWith(executor) { value in
                value + 1
            }.continueOnSuccessWith(executor) { value in
                blackHole(value)
                semaphore.signal()
            }
            semaphore.wait()
        }
    }
    Benchmark("B3 BoltsStyle", configuration: perOperation) { benchmark in
        for _ in benchmark.scaledIterations {
            BFTask(1).continueOnSuccessWith(executor) { value in
                value + 1
            }.continueOnSuccessWith(executor) { value in
                value + 1
            }.continueOnSuccessWith(executor) { value in
                blackHole(value)
                semaphore.signal()
            }
            semaphore.wait()
        }
    }

    // MARK: PromiseKitStyle: `map(on:)` then `done(on:)`.

    Benchmark("B1 PromiseKitStyle", configuration: perOperation) { benchmark in
        for _ in benchmark.scaledIterations {
            _ = PromiseKitStyle.Promise.value(1).done(on: queue) { value in
                blackHole(value)
                semaphore.signal()
            }
            semaphore.wait()
        }
    }
    Benchmark("B2 PromiseKitStyle", configuration: perOperation) { benchmark in
        for _ in benchmark.scaledIterations {
            _ = PromiseKitStyle.Promise.value(1).map(on: queue) { value in
                value + 1
            }.done(on: queue) { value in
                blackHole(value)
                semaphore.signal()
            }
            semaphore.wait()
        }
    }
    Benchmark("B3 PromiseKitStyle", configuration: perOperation) { benchmark in
        for _ in benchmark.scaledIterations {
            _ = PromiseKitStyle.Promise.value(1).map(on: queue) { value in
                value + 1
            }.map(on: queue) { value in
                value + 1
            }.done(on: queue) { value in
                blackHole(value)
                semaphore.signal()
            }
            semaphore.wait()
        }
    }

    // MARK: FBLStyle: `then(on:)`.

    Benchmark("B1 FBLStyle", configuration: perOperation) { benchmark in
        for _ in benchmark.scaledIterations {
            FBLStyle.Promise(1).then(on: queue) { (value: Int) in
                blackHole(value)
                semaphore.signal()
            }
            semaphore.wait()
        }
    }
    Benchmark("B2 FBLStyle", configuration: perOperation) { benchmark in
        for _ in benchmark.scaledIterations {
            FBLStyle.Promise(1).then(on: queue) { (value: Int) -> Int in
                value + 1
            }.then(on: queue) { (value: Int) in
                blackHole(value)
                semaphore.signal()
            }
            semaphore.wait()
        }
    }
    Benchmark("B3 FBLStyle", configuration: perOperation) { benchmark in
        for _ in benchmark.scaledIterations {
            FBLStyle.Promise(1).then(on: queue) { (value: Int) -> Int in
                value + 1
            }.then(on: queue) { (value: Int) -> Int in
                value + 1
            }.then(on: queue) { (value: Int) in
                blackHole(value)
                semaphore.signal()
            }
            semaphore.wait()
        }
    }
}
