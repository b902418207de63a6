// The entry point of the benchmark plugin: every benchmark of docs/benchmarks.md, registered in one place.

import Benchmark

let benchmarks: @Sendable () -> Void = {
    registerHops()
    registerFanOut()
    registerMachinery()
    registerLong()
    registerCombinators()
    registerPrograms()
}
