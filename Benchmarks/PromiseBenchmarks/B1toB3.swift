// B1, B2, B3: a resolved promise, 1, 2 or 3 chained blocks on a serial queue, until the last block runs.
// Baselines: the same hops with plain `DispatchQueue.async`, and with `async`/`await`.
// B1 also times PromiseKitStyle the way PromiseKit code ends a chain, `done(on: q) {...}.cauterize()`
// ("B1 PromiseKitStyle cauterize"): the `done` row alone leaves the returned promise unhandled.
//
// Each contender's operation is written once below. It is timed twice: alone ("B2 BoltsStyle": its time and its
// mallocs) and paired with the baselines ("B2 BoltsStyle paired": the ratios, see `Paired.swift`).

import Benchmark
import BoltsStyle
import Dispatch
import FBLStyle
import PromiseKitStyle

/// The operations of B1 (`hops == 1`), B2 and B3, by contender, baselines first.
func hopOperations(hops: Int) -> [(contender: String, operation: Operation)] {
    let semaphore = DispatchSemaphore(value: 0)
    let queue = serialQueue
    let executor = BFExecutor.queue(queue)
    let hop = Hop()
    switch hops {
    case 1:
        return [
            (
                plainGCD,
                {
                    queue.async {
                        blackHole(1)
                        semaphore.signal()
                    }
                    semaphore.wait()
                }
            ),
            (
                asyncAwait,
                {
                    Task {
                        blackHole(1)
                        semaphore.signal()
                    }
                    semaphore.wait()
                }
            ),
            (
                "BoltsStyle",
                {
                    BFTask(1).continueOnSuccessWith(executor) {
                        blackHole($0)
                        semaphore.signal()
                    }
                    semaphore.wait()
                }
            ),
            (
                "PromiseKitStyle",
                {
                    _ = PromiseKitStyle.Promise.value(1).done(on: queue) {
                        blackHole($0)
                        semaphore.signal()
                    }
                    semaphore.wait()
                }
            ),
            (
                pkCauterized,
                {
                    PromiseKitStyle.Promise.value(1).done(on: queue) {
                        blackHole($0)
                        semaphore.signal()
                    }.cauterize()
                    semaphore.wait()
                }
            ),
            (
                "FBLStyle",
                {
                    FBLStyle.Promise(1).then(on: queue) { (value: Int) in
                        blackHole(value)
                        semaphore.signal()
                    }
                    semaphore.wait()
                }
            ),
        ]
    case 2:
        return [
            (
                plainGCD,
                {
                    queue.async {
                        let second = 1 + 1
                        queue.async {
                            blackHole(second)
                            semaphore.signal()
                        }
                    }
                    semaphore.wait()
                }
            ),
            (
                asyncAwait,
                {
                    Task {
                        blackHole(await hop.step(1))
                        semaphore.signal()
                    }
                    semaphore.wait()
                }
            ),
            (
                "BoltsStyle",
                {
                    BFTask(1).continueOnSuccessWith(executor) { $0 + 1 }
                        .continueOnSuccessWith(executor) {
                            blackHole($0)
                            semaphore.signal()
                        }
                    semaphore.wait()
                }
            ),
            (
                "PromiseKitStyle",
                {
                    _ = PromiseKitStyle.Promise.value(1).map(on: queue) { $0 + 1 }.done(on: queue) {
                        blackHole($0)
                        semaphore.signal()
                    }
                    semaphore.wait()
                }
            ),
            (
                "FBLStyle",
                {
                    FBLStyle.Promise(1).then(on: queue) { (value: Int) -> Int in value + 1 }.then(on: queue) {
                        (value: Int) in
                        blackHole(value)
                        semaphore.signal()
                    }
                    semaphore.wait()
                }
            ),
        ]
    default:
        precondition(hops == 3)
        return [
            (
                plainGCD,
                {
                    queue.async {
                        let second = 1 + 1
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
            ),
            (
                asyncAwait,
                {
                    Task {
                        blackHole(await hop.step(await hop.step(1)))
                        semaphore.signal()
                    }
                    semaphore.wait()
                }
            ),
            (
                "BoltsStyle",
                {
                    BFTask(1).continueOnSuccessWith(executor) { $0 + 1 }
                        .continueOnSuccessWith(executor) { $0 + 1 }
                        .continueOnSuccessWith(executor) {
                            blackHole($0)
                            semaphore.signal()
                        }
                    semaphore.wait()
                }
            ),
            (
                "PromiseKitStyle",
                {
                    _ = PromiseKitStyle.Promise.value(1).map(on: queue) { $0 + 1 }.map(on: queue) { $0 + 1 }.done(
                        on: queue
                    ) {
                        blackHole($0)
                        semaphore.signal()
                    }
                    semaphore.wait()
                }
            ),
            (
                "FBLStyle",
                {
                    FBLStyle.Promise(1).then(on: queue) { (value: Int) -> Int in value + 1 }
                        .then(on: queue) { (value: Int) -> Int in value + 1 }
                        .then(on: queue) { (value: Int) in
                            blackHole(value)
                            semaphore.signal()
                        }
                    semaphore.wait()
                }
            ),
        ]
    }
}

func registerHops() {
    for hops in 1...3 {
        let operations = hopOperations(hops: hops)
        for (contender, operation) in operations {
            Benchmark("B\(hops) \(contender)", configuration: perOperation) { benchmark in
                for _ in benchmark.scaledIterations { operation() }
            }
        }
        // Paired with plain GCD only: timed right after the dispatch-based contenders, the async/await baseline ran
        // in about 5 µs however slow a dispatch hop was at the time (its time alone varies from 13 µs to 50 µs), so a
        // ratio to it taken that way would describe the pairing, not the style.
        let baselines = operations.filter { $0.contender == plainGCD }
        for (contender, operation) in operations where contender != plainGCD && contender != asyncAwait {
            registerPaired("B\(hops) \(contender)", subject: operation, baselines: baselines, repetitions: 64)
        }
    }
}
