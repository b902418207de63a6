// promise-conformance: the package's main command. Runs the conformance suite over the three built-in styles and
// prints the matrix; `--help` lists the options. The whole front end is PromiseConformance's `ConformanceCommand`,
// so a promise library of your own can ship the same command in a few lines.
import Foundation
import PromiseConformance
import PromiseKitStyle
import PromiseStyleAdapters

// The suite settles promises twice and drops pending ones on purpose; PromiseKit would print a warning for each.
conf.logHandler = { _ in }

// The runner measures with `Duration`, newer than the package's floor: on an older Apple system, say so and stop.
if #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) {
    let status = await ConformanceCommand.run(
        adapters: BuiltInAdapters.all,
        arguments: Array(CommandLine.arguments.dropFirst())
    )
    exit(status)
} else {
    FileHandle.standardError.write(Data("promise-conformance: needs macOS 13 or later\n".utf8))
    exit(2)
}
