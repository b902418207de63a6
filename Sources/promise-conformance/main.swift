// The package's main command: the conformance matrix of promise implementations.
// (On the `conf` branch it runs the test target's reference and flawed promises; the integrator swaps in the three
// built-in styles' adapters.)
import Foundation
import PromiseConformance

let adapters: [any PromiseAdapter] = [ReferenceAdapter()] + Flaw.allCases.map { FlawedAdapter(flaw: $0) }
exit(await ConformanceCommand.run(adapters: adapters, arguments: Array(CommandLine.arguments.dropFirst())))
