// crash-isolation-fixture: the conformance command over deliberately broken promises, some of which crash the process:
// one by a recursive release that overflows the stack in swift.deepChain, one by a trap in one case of a clause, and
// one hangs in one case. CommandTests runs it to check that the command isolates each clause in a child process: a
// crash fails the case it happened in, with its signal, the clause's other cases and the clauses after it still run,
// and a hang is named to its case too.
import FlawedPromises
import Foundation
import PromiseConformance

let status = await ConformanceCommand.run(
    adapters: [
        FlawedAdapter(flaw: .recursiveRelease), FlawedAdapter(flaw: .retainCycle),
        MisbehavingInOneCaseAdapter(.crashesInImmediateCase), MisbehavingInOneCaseAdapter(.hangsInImmediateCase),
    ],
    arguments: Array(CommandLine.arguments.dropFirst())
)
exit(status)
