// Shared queues, the baselines' helpers and the benchmark configurations.

import Benchmark
import Dispatch

/// The serial queue every B1-B3 hop (and FBLStyle's B5/B6 blocks) runs on.
let serialQueue = DispatchQueue(label: "benchmarks.serial")
/// The concurrent queue of B4.
let concurrentQueue = DispatchQueue(label: "benchmarks.concurrent", attributes: .concurrent)

/// B1-B3 and B5: many cheap operations, so one sample times 1,000 of them (reported per operation).
var perOperation: Benchmark.Configuration {
    Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal],
        timeUnits: .nanoseconds,
        units: [.mallocCountTotal: .count],
        warmupIterations: 5,
        scalingFactor: .kilo,
        maxDuration: .seconds(2),
        maxIterations: 2_000
    )
}

/// B4, B6 and B7: one sample is one whole batch (10,000 promises, a 1,000,000-step chain, ...).
func perBatch(seconds: Int = 3, maxIterations: Int = 200) -> Benchmark.Configuration {
    Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal],
        timeUnits: .nanoseconds,
        units: [.mallocCountTotal: .count],
        warmupIterations: 1,
        scalingFactor: .one,
        maxDuration: .seconds(seconds),
        maxIterations: maxIterations
    )
}

/// The actor the `async`/`await` baselines hop onto.
actor Hop {
    func step(_ value: Int) -> Int { value + 1 }
}

/// One operation of B1-B4 for one contender: it returns once the work it started has finished.
typealias Operation = @Sendable () -> Void
