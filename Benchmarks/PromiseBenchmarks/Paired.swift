// Paired samples: a style and its baseline timed in alternation, milliseconds apart, in one benchmark.
//
// Why: B1-B4 are made of wake-ups (the waiting thread wakes a dispatch worker, the worker wakes the waiting thread),
// and on the 2-core virtual machine these benchmarks were written on, their cost changes for seconds at a time: B1
// plain GCD took about 4.4 µs per operation with both threads pinned to one CPU, and anywhere from 15 µs to 55 µs on
// two CPUs, where the woken thread sometimes shares the waker's CPU and sometimes needs the other, idle one. Timed in
// separate benchmarks, a style and its baseline can land in different modes: the same style measured 0.68x plain GCD
// in one round and 3.5x in another. Timed in alternation inside one sample, they share the mode, and the ratio of the
// two times is the measurement. Each sample records that ratio, in thousandths, as a custom metric, and the context
// switches of each side; `compare` reports their medians.

import Benchmark
import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The contender name of the plain GCD baseline.
let plainGCD = "GCD"
/// The contender name of the `async`/`await` baseline.
let asyncAwait = "async/await"
/// The contender name of PromiseKitStyle ending each chain with `cauterize()` (B1 and B4), as PromiseKit code does.
let pkCauterized = "PromiseKitStyle cauterize"

/// The custom metric that holds a paired sample's ratio to `baseline`, in thousandths.
func ratioMetric(to baseline: String) -> BenchmarkMetric {
    .custom("ratio to \(baseline) (per mille)", polarity: .prefersSmaller, useScalingFactor: false)
}

/// The custom metric that holds the context switches per 1,000 operations of `contender` in a paired sample
/// (the whole process: the waiting thread and the dispatch workers).
func switchesMetric(of contender: String) -> BenchmarkMetric {
    .custom("switches of \(contender) (per 1000 operations)", polarity: .prefersSmaller, useScalingFactor: false)
}

/// Registers "`name` paired": each sample times `repetitions` runs of `subject` and of every baseline, alternating
/// which goes first, and records `subject`'s time divided by each baseline's, and the context switches of each.
func registerPaired(
    _ name: String,
    subject: @escaping Operation,
    baselines: [(contender: String, operation: Operation)],
    repetitions: Int,
    seconds: Int = 1
) {
    let configuration = Benchmark.Configuration(
        metrics: baselines.map { ratioMetric(to: $0.contender) } + baselines.map { switchesMetric(of: $0.contender) }
            + [switchesMetric(of: "subject")],
        warmupIterations: 2,
        scalingFactor: .one,
        maxDuration: .seconds(seconds),
        maxIterations: 1_000
    )
    let flip = Toggle()
    Benchmark("\(name) paired", configuration: configuration) { benchmark in
        let subjectFirst = flip.toggle()
        for (contender, baseline) in baselines {
            let subjectRun: Run
            let baselineRun: Run
            if subjectFirst {
                subjectRun = Run(repetitions, subject)
                baselineRun = Run(repetitions, baseline)
            } else {
                baselineRun = Run(repetitions, baseline)
                subjectRun = Run(repetitions, subject)
            }
            benchmark.measurement(
                ratioMetric(to: contender), subjectRun.nanoseconds * 1000 / max(baselineRun.nanoseconds, 1))
            benchmark.measurement(switchesMetric(of: contender), baselineRun.switches * 1000 / repetitions)
            benchmark.measurement(switchesMetric(of: "subject"), subjectRun.switches * 1000 / repetitions)
        }
    }
}

/// `repetitions` runs of an operation: how long they took and how many context switches the process made.
struct Run {
    let nanoseconds: Int
    let switches: Int

    init(_ repetitions: Int, _ operation: Operation) {
        let switchesBefore = contextSwitches()
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<repetitions { operation() }
        nanoseconds = Int(DispatchTime.now().uptimeNanoseconds - start)
        switches = contextSwitches() - switchesBefore
    }
}

/// The voluntary and involuntary context switches of every thread of this process so far.
func contextSwitches() -> Int {
    var usage = rusage()
    #if os(Linux)
        getrusage(RUSAGE_SELF.rawValue, &usage)
    #else
        getrusage(RUSAGE_SELF, &usage)
    #endif
    return usage.ru_nvcsw + usage.ru_nivcsw
}

/// A flag flipped on every call, shared by a benchmark's samples.
final class Toggle: @unchecked Sendable {
    private let lock = DispatchSemaphore(value: 1)
    private var value = false

    /// Flips the flag and returns its new value.
    func toggle() -> Bool {
        lock.wait()
        defer { lock.signal() }
        value.toggle()
        return value
    }
}
