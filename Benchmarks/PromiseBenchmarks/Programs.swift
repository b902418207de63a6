// Programs: the conformance suite's generated programs, run and checked over each style's adapter, as programs per
// second (issue 30 asks for the figure). One iteration runs the four generated clauses with 25 programs each, as
// `Conformance.run` runs them for a user: generating each program, predicting it with the model, driving it on the
// style, checking it and letting it go. Programs per second are 100 divided by the wall clock of an iteration.

import Benchmark
import PromiseConformance
import PromiseKitStyle
import PromiseStyleAdapters

/// The programs one iteration runs: 25 per generated clause, over the four generated clauses.
let programsPerIteration = 4 * 25

func registerPrograms() {
    let generated = Clause.all.filter { $0.programs != nil }
    conf.logHandler = { _ in }  // the programs settle promises twice on purpose: PromiseKit would log each
    let adapters: [any PromiseAdapter] = BuiltInAdapters.all
    for adapter in adapters {
        Benchmark(
            "Programs \(adapter.name)",
            configuration: .init(
                metrics: [.wallClock], scalingFactor: .one, maxDuration: .seconds(5), maxIterations: 20)
        ) { benchmark in
            for _ in benchmark.scaledIterations {
                let report = await Conformance.run(
                    adapter, clauses: generated, programs: GeneratedPrograms(count: programsPerIteration / 4))
                precondition(report.failures.isEmpty, "\(report)")
            }
        }
    }
}
