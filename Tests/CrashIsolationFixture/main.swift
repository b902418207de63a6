// crash-isolation-fixture: the conformance command over two deliberately broken promises, one of which crashes the
// process (a recursive release that overflows the stack in swift.deepChain). CommandTests runs it to check that the
// command isolates each clause in a child process: the crash fails that clause, with its signal, and the run goes on.
import FlawedPromises
import Foundation
import PromiseConformance

let status = await ConformanceCommand.run(
    adapters: [FlawedAdapter(flaw: .recursiveRelease), FlawedAdapter(flaw: .retainCycle)],
    arguments: Array(CommandLine.arguments.dropFirst())
)
exit(status)
