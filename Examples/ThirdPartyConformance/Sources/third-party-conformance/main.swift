// third-party-conformance: the conformance command over swift-nio's EventLoopFuture, OpenCombine's Future and Swift's
// Task, beside the package's three styles. `write-report.sh` runs it and writes docs/third-party-conformance.md.
import Foundation
import PromiseConformance
import PromiseKitStyle
import PromiseStyleAdapters
import ThirdPartyAdapters

// The suite settles promises twice and drops pending ones on purpose; PromiseKit would print a warning for each.
conf.logHandler = { _ in }

let status = await ConformanceCommand.run(
    adapters: BuiltInAdapters.all + [NIOFutureAdapter(), OpenCombineFutureAdapter(), SwiftTaskAdapter()],
    arguments: Array(CommandLine.arguments.dropFirst())
)
exit(status)
