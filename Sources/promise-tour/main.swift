// promise-tour: runs the scenarios of docs/guide.md in each style and prints their timelines.
//
//     swift run promise-tour                      # every scenario in every style
//     swift run promise-tour --scenario 4         # one scenario
//     swift run promise-tour --style fbl          # one style (bolts, promisekit, fbl, async)
//
// The top-level code below uses `await`, so this is an async main: while it is suspended, the main queue is served
// (on Linux by a pool thread, after the main thread has handed it over), and scenario 4 puts its UI step on the real
// main queue. A watchdog ends the process if anything hangs, so the tour always terminates.

import Dispatch
import Foundation
import PromiseTour

func usage() -> Never {
    print("usage: promise-tour [--scenario N]... [--style bolts|promisekit|fbl|async]... [--stand-in-main]")
    exit(2)
}

var options = TourOptions(mainQueueIsServed: true)
var scenarios: [Int] = []
var styles: [TourStyle] = []
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--scenario", "-s":
        guard let value = arguments.popFirst(), let number = Int(value), PromiseTour.titles[number] != nil else {
            usage()
        }
        scenarios.append(number)
    case "--style":
        guard let value = arguments.popFirst(), let style = TourStyle(name: value) else { usage() }
        styles.append(style)
    case "--stand-in-main":
        options.mainQueueIsServed = false
    case "--help", "-h":
        usage()
    default:
        usage()
    }
}
if !scenarios.isEmpty { options.scenarios = scenarios }
if !styles.isEmpty { options.styles = styles }

// The watchdog: no run should take long; if one hangs anyway, say so and stop.
let limit = Double(options.scenarios.count * options.styles.count) * options.timeLimit * 2 + 10
DispatchQueue.global().asyncAfter(deadline: .now() + limit) {
    print("promise-tour: still running after \(Int(limit)) s, giving up")
    exit(1)
}

print("promise-tour: the scenarios of docs/guide.md, step by step")
print(PromiseTour.legend)
let runs = await PromiseTour.run(options) { line in print(line) }
let failed = runs.filter { $0.outcome.hasPrefix("timed out") }
exit(failed.isEmpty ? 0 : 1)
