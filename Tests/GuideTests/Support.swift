import Dispatch
import Testing

import enum TestSupport.TestEnvironment

@testable import PromiseTour

/// Runs `scenario` in `style` with scenario 4's UI step on a stand-in queue: nothing here needs the main queue.
func runScenario(_ scenario: Int, _ style: TourStyle) async -> TourRun {
    let ui = UITarget.standIn(DispatchQueue(label: "ui (stand-in for main)"), UIStandIn())
    return await PromiseTour.run(scenario, in: style, ui: ui, timeLimit: 20 * TestEnvironment.limitScale)
}

extension TourRun {
    /// The steps, without the `start` and `end` lines.
    var steps: [String] {
        entries.map(\.step).filter { $0 != "start" && !$0.hasPrefix("end: ") }
    }

    /// The index of the first entry whose step starts with `prefix`.
    func index(of prefix: String, sourceLocation: SourceLocation = #_sourceLocation) -> Int {
        guard let index = entries.firstIndex(where: { $0.step.hasPrefix(prefix) }) else {
            Issue.record(
                "no step starting with \"\(prefix)\" in \(style.rawValue):\n\(timeline)", sourceLocation: sourceLocation
            )
            return -1
        }
        return index
    }

    /// The entry of the first step that starts with `prefix`.
    func entry(_ prefix: String) -> TimelineEntry? {
        entries.first { $0.step.hasPrefix(prefix) }
    }

    /// The printed timeline, for failure messages.
    var timeline: String {
        entries.map { "  \($0)" }.joined(separator: "\n")
    }
}
