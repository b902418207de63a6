import Dispatch
import Testing

import enum TestSupport.TestEnvironment
import func TestSupport.aheadOfTheQueue

@testable import PromiseTour

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs `scenario` in `style` with scenario 4's UI step on a stand-in queue: nothing here needs the main queue.
func runScenario(_ scenario: Int, _ style: TourStyle) async -> TourRun {
    await runScenario(on: Backend(timeline: Timeline(), scenario: scenario, style: style.rawValue), style)
}

/// Runs `backend.scenario` in `style` on `backend`, a fresh server that may tell another story than the guide's, and
/// reports it as timed out after `timeLimit` seconds: the hang guard, as for every wait of the tests. A scenario takes
/// milliseconds alone, but all of them start with the whole suite, whose long chains and conformance runs keep
/// Dispatch's threads and the cores busy for their first minutes, more so on a machine busy with other work. It runs
/// ahead of the queue of tests waiting to start (``aheadOfTheQueue(_:)``): in the `async` style each of its steps
/// needs a thread of the cooperative pool, and would otherwise wait for all of them.
func runScenario(
    on backend: Backend, _ style: TourStyle, timeLimit: Double = TestEnvironment.hangGuard
) async -> TourRun {
    let ui = UITarget.standIn(DispatchQueue(label: "ui (stand-in for main)"), UIStandIn())
    return await aheadOfTheQueue { await PromiseTour.run(on: backend, in: style, ui: ui, timeLimit: timeLimit) }
}

/// How many bytes of the calling thread's stack are in use: from the top of the stack down to a local here.
func stackDepth() -> Int {
    var marker = 0
    let here = withUnsafeMutablePointer(to: &marker) { Int(bitPattern: $0) }
    #if canImport(Darwin)
        let top = Int(bitPattern: pthread_get_stackaddr_np(pthread_self()))
    #else
        var attributes = pthread_attr_t()
        _ = getAttributes(pthread_self(), &attributes)
        defer { pthread_attr_destroy(&attributes) }
        var lowest: UnsafeMutableRawPointer?
        var size = 0
        pthread_attr_getstack(&attributes, &lowest, &size)
        let top = Int(bitPattern: lowest) + size
    #endif
    return top - here
}

#if !canImport(Darwin)
    /// glibc's `pthread_getattr_np`, which Swift's Glibc module leaves out (it is a GNU extension), found at run time.
    private typealias GetAttributes = @convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32
    private let getAttributes = unsafeBitCast(dlsym(nil, "pthread_getattr_np")!, to: GetAttributes.self)
#endif

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

    /// The steps starting with `prefix`.
    func steps(_ prefix: String) -> [String] {
        entries.map(\.step).filter { $0.hasPrefix(prefix) }
    }

    /// The steps after the first one that starts with `prefix` (none if there is no such step, which `index(of:)`
    /// reports).
    func steps(after prefix: String, sourceLocation: SourceLocation = #_sourceLocation) -> [String] {
        let index = self.index(of: prefix, sourceLocation: sourceLocation)
        return index < 0 ? [] : entries[(index + 1)...].map(\.step)
    }

    /// The numbers of the `progress n/…` steps, in order.
    var progress: [Int] {
        steps("progress ").compactMap { Int($0.dropFirst("progress ".count).prefix { $0 != "/" }) }
    }

    /// The printed timeline, for failure messages.
    var timeline: String {
        entries.map { "  \($0)" }.joined(separator: "\n")
    }
}

extension Backend {
    /// The steps noted after `run` ended, once any timer that should have been stopped has had time to fire (a wait
    /// that can only let a stray tick go unseen, never fail a correct run).
    func stepsAfter(_ run: TourRun) async -> [String] {
        try? await Task.sleep(for: .milliseconds(50))
        await idle()
        return timeline.all.dropFirst(run.entries.count).map(\.step)
    }
}
