// ecosystem-conformance: the conformance command over seven Swift promise libraries (khanlou/Promise, freshOS/Then,
// BrightFutures, bignerdranch/Deferred, Hydra, When and ReactiveSwift), beside the package's three styles. Its results
// are docs/ecosystem-conformance.md. Nothing here imports the Deferred library's `Task` module, so top-level `await`
// keeps Swift concurrency's own; and top-level `await` serves the main queue, where some of these libraries run their
// combinators' callbacks.
import EcosystemAdapters
import Foundation
import PromiseConformance
import PromiseKitStyle
import PromiseStyleAdapters

// The suite settles promises twice and drops pending ones on purpose; PromiseKit would print a warning for each.
conf.logHandler = { _ in }

let status = await ConformanceCommand.run(
    adapters: BuiltInAdapters.all + [
        KhanlouPromiseAdapter(), ThenAdapter(), BrightFuturesAdapter(), DeferredAdapter(), HydraAdapter(),
        WhenAdapter(), ReactiveSwiftAdapter(),
    ],
    arguments: Array(CommandLine.arguments.dropFirst())
)
exit(status)
