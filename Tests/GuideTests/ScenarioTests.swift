// Runs every sample of docs/guide.md (they live in Sources/PromiseTour, marked `guide:begin`/`guide:end`) in every
// style and checks what the guide says about it: the outcome, the order of the steps, and where they ran. Only
// orders that the code guarantees are checked, never timings.

import Dispatch
import Foundation
import PromiseKitStyle
import Testing

import struct TestSupport.OffThePool
import enum TestSupport.TestEnvironment

@testable import PromiseTour

@Suite("The guide's scenarios")
struct ScenarioTests {
    @Test("1. two fetches, then one step that needs both", arguments: TourStyle.allCases)
    func joinTwoFetches(style: TourStyle) async {
        let run = await runScenario(1, style)
        #expect(run.outcome == "result: screen(data1-data, data2-data)", "\(run.timeline)")
        let push = run.index(of: "push screen")
        #expect(push > run.index(of: "← fetch data1"))
        #expect(push > run.index(of: "← fetch data2"))
        switch style {
        case .bolts:
            // `.default` runs the continuation inline, on the thread that completed the last fetch: one of the two
            // network threads the responses arrived on (which one logged its response last says nothing about
            // which one completed its task last). If both answers are in before the step is chained (a registering
            // thread held up on a busy machine), it runs at once on the chaining thread. Never a hop.
            let step = run.entries[push]
            let responders = [run.entries[run.index(of: "← fetch data1")], run.entries[run.index(of: "← fetch data2")]]
            let chaining = run.entries[run.index(of: "→ fetch data2")]
            let onAnAnswer = responders.map(\.thread).contains(step.thread) && step.queue == "network"
            let onTheChainingThread = step.thread == chaining.thread && step.queue == chaining.queue
            #expect(onAnAnswer || onTheChainingThread, "\(run.timeline)")
        case .promiseKit, .fbl:
            #expect(run.entries[push].queue == "background", "\(run.timeline)")
        case .async:
            break
        }
    }

    @Test("2. a chain of asynchronous steps", arguments: TourStyle.allCases)
    func chain(style: TourStyle) async {
        let run = await runScenario(2, style)
        #expect(run.outcome == "result: ada (2 visits)", "\(run.timeline)")
        let expected = [
            "→ query ada", "← query ada", "modify ada (0 visits)", "→ save ada (1 visits)", "← save ada (1 visits)",
            "→ query ada", "← query ada", "modify ada (1 visits)", "→ save ada (2 visits)", "← save ada (2 visits)",
        ]
        #expect(run.steps.count == expected.count, "\(run.timeline)")
        for (step, prefix) in zip(run.steps, expected) {
            #expect(step.hasPrefix(prefix), "\(run.timeline)")
        }
        let modify = run.index(of: "modify")
        switch style {
        case .bolts:
            // `.default` runs a continuation inline: on the network thread that completes the task, or, when the
            // answer is already there as the step is chained (a registering thread held up on a busy machine), at
            // once on the chaining thread. Either way, no hop.
            let step = run.entries[modify]
            let answer = run.entries[modify - 1]
            let chaining = run.entries[run.index(of: "→ query ada")]
            let onTheAnswer = step.thread == answer.thread && step.queue == "network"
            let onTheChainingThread = step.thread == chaining.thread && step.queue == chaining.queue
            #expect(onTheAnswer || onTheChainingThread, "inline: \(run.timeline)")
        case .promiseKit, .fbl:
            #expect(run.entries[modify].queue == "background", "\(run.timeline)")
        case .async:
            #expect(run.entries[modify].queue != "network", "\(run.timeline)")
        }
    }

    @Test("3. serial, then parallel deletes", arguments: TourStyle.allCases)
    func deletes(style: TourStyle) async {
        let run = await runScenario(3, style)
        #expect(run.outcome == "result: left: []", "\(run.timeline)")
        #expect(run.index(of: "→ delete b") > run.index(of: "← delete a"), "serial: \(run.timeline)")
        let parallel = run.index(of: "serial deletes done")
        #expect(parallel > run.index(of: "← delete b"))
        #expect(run.index(of: "→ delete c") > parallel)
        #expect(run.index(of: "→ delete d") > parallel)
        let end = run.index(of: "end: ")
        #expect(end > run.index(of: "← delete c"))
        #expect(end > run.index(of: "← delete d"))
    }

    @Test("4. a background queue, then the UI queue (a stand-in for main)", arguments: TourStyle.allCases)
    func whereStepsRun(style: TourStyle) async throws {
        let run = await runScenario(4, style)
        #expect(run.outcome == "result: REPORT-DATA", "\(run.timeline)")
        let parse = try #require(run.entry("parse"))
        let show = try #require(run.entry("show"))
        #expect(run.index(of: "show") > run.index(of: "parse"))
        #expect(show.queue != "main queue", "nothing here serves the main queue")
        switch style {
        case .bolts, .promiseKit, .fbl:
            #expect(parse.queue == "background", "\(run.timeline)")
            #expect(show.queue == "ui (stand-in for main)", "\(run.timeline)")
        case .async:
            #expect(parse.queue != "network", "\(run.timeline)")
        }
    }

    @Test("5. cancelling work in flight", arguments: TourStyle.allCases)
    func cancelling(style: TourStyle) async {
        let run = await runScenario(5, style)
        #expect(run.entry("render") == nil, "the step after the cancelled one never runs: \(run.timeline)")
        #expect(run.index(of: "user taps Cancel") > run.index(of: "→ fetch images"))
        let aborted = run.entry("✕ fetch images aborted") != nil
        switch style {
        case .bolts:
            #expect(run.outcome == "error: BFCancelledError()", "\(run.timeline)")
            #expect(aborted, "a token aborts the request itself: \(run.timeline)")
        case .promiseKit:
            #expect(run.outcome == "error: \(PMKError.cancelled)", "\(run.timeline)")
            #expect(!aborted, "\(run.timeline)")
            // The chain stops only when the request has answered and the next step checks the flag.
            #expect(run.index(of: "end: ") > run.index(of: "← fetch images"))
        case .fbl:
            #expect(run.outcome == "error: CancellationError()", "\(run.timeline)")
            #expect(!aborted, "\(run.timeline)")
        case .async:
            #expect(run.outcome == "error: CancellationError()", "\(run.timeline)")
            #expect(aborted, "task cancellation reaches the request: \(run.timeline)")
        }
    }

    @Test("6. retrying, timing out, recovering", arguments: TourStyle.allCases)
    func errors(style: TourStyle) async {
        let run = await runScenario(6, style)
        #expect(run.outcome == "result: cached-data", "\(run.timeline)")
        #expect(run.steps.filter { $0 == "→ fetch flaky" }.count == 3, "\(run.timeline)")
        #expect(run.steps.filter { $0.hasPrefix("retry after offline") }.count == 2, "\(run.timeline)")
        let recover = run.index(of: "recover from timedOut")
        #expect(recover > run.index(of: "→ fetch slow"))
        #expect(run.index(of: "← fetch slow") > recover, "the slow answer arrives after the timeout")
        #expect((run.entry("✕ fetch slow aborted") != nil) == (style == .async), "\(run.timeline)")
    }

    @Test("7. a work line: three uploads at most; Cancel starts no more", arguments: TourStyle.allCases)
    func workLine(style: TourStyle) async {
        let backend = Backend(timeline: Timeline(), scenario: 7, style: style.rawValue)
        let run = await runScenario(on: backend, style, timeLimit: TestEnvironment.hangGuard)
        let uploaded = run.steps("← upload").filter { !$0.contains("dropped") }.count
        #expect(run.outcome == "result: \(uploaded) of 12 uploaded", "\(run.timeline)")
        #expect(backend.peakRequestsInFlight <= 3, "\(run.timeline)")
        #expect(run.progress == Array(1..<uploaded + 1), "rising by one to the count: \(run.timeline)")
        #expect(run.index(of: "user taps Cancel") > run.index(of: "→ upload file8"))
        let startedAfterTap = run.steps(after: "user taps Cancel").filter { $0.hasPrefix("→ upload") }
        switch style {
        case .bolts:
            #expect(startedAfterTap.isEmpty, "\(run.timeline)")
            #expect(run.entry("✕ upload file8 aborted") != nil, "the token aborts uploads in flight: \(run.timeline)")
            #expect(uploaded < 8)
        case .promiseKit, .fbl:
            #expect(startedAfterTap.isEmpty, "\(run.timeline)")
            #expect(uploaded == 8, "the uploads in flight run to their end: \(run.timeline)")
            #expect(run.entry("✕") == nil, "\(run.timeline)")
        case .async:
            #expect(run.entry("✕ upload file8 aborted") != nil, "\(run.timeline)")
            #expect(uploaded < 8)
            // A child task starting its request as the user taps may note the start after the tap: it is aborted at once.
            for step in startedAfterTap {
                #expect(run.entry("✕ \(step.dropFirst(2)) aborted") != nil, "\(run.timeline)")
            }
        }
    }

    @Test("7. a work line left alone: all twelve, three at a time", arguments: TourStyle.allCases)
    func workLineToTheEnd(style: TourStyle) async {
        var story = Story()
        story.cancelUploadsAfter = nil
        let backend = Backend(timeline: Timeline(), scenario: 7, style: style.rawValue, story: story)
        let run = await runScenario(on: backend, style, timeLimit: TestEnvironment.hangGuard)
        #expect(run.outcome == "result: 12 of 12 uploaded", "\(run.timeline)")
        #expect(Set(run.steps("→ upload")).count == 12, "every file once: \(run.timeline)")
        #expect(run.progress == Array(1...12), "\(run.timeline)")
        // The server answers the first two uploads only once the third has started: three are in flight together.
        #expect(backend.peakRequestsInFlight == 3, "\(run.timeline)")
    }

    @Test("8. polling stops when the job is done", arguments: TourStyle.allCases)
    func pollingUntilDone(style: TourStyle) async {
        var story = Story()
        (story.pollInterval, story.pollLimit) = (0.001, 3600)
        let backend = Backend(timeline: Timeline(), scenario: 8, style: style.rawValue, story: story)
        let run = await runScenario(on: backend, style, timeLimit: TestEnvironment.hangGuard)
        #expect(run.outcome == "result: done", "\(run.timeline)")
        #expect(run.steps("→ status export").count == 4, "the job is done at the 4th poll: \(run.timeline)")
        #expect(run.steps("next poll").count == 3, "\(run.timeline)")
        let afterDone = run.steps(after: "← status export = done")
        #expect(!afterDone.contains { $0.hasPrefix("→ status") || $0.hasPrefix("next") }, "\(run.timeline)")
        #expect(await backend.stepsAfter(run).isEmpty, "no tick after the end: \(run.timeline)")
    }

    @Test("8. polling gives up at its limit", arguments: TourStyle.allCases)
    func pollingGivesUp(style: TourStyle) async {
        var story = Story()
        (story.pollsUntilDone, story.pollInterval, story.pollLimit) = (.max, 0.001, 0.05)
        let backend = Backend(timeline: Timeline(), scenario: 8, style: style.rawValue, story: story)
        let run = await runScenario(on: backend, style, timeLimit: TestEnvironment.hangGuard)
        #expect(run.outcome.hasPrefix("error: ") && run.outcome.contains("timedOut"), "\(run.timeline)")
        #expect(!run.steps("→ status export").isEmpty)
        #expect(!run.steps(after: "end: ").contains { $0.hasPrefix("→ status") }, "\(run.timeline)")
        #expect(await backend.stepsAfter(run).filter { $0.hasPrefix("→ status") }.isEmpty, "\(run.timeline)")
    }

    @Test("8. Cancel stops polling at once, in the middle of a one-day wait", arguments: TourStyle.allCases)
    func pollingCancelled(style: TourStyle) async {
        var story = Story()
        (story.pollsUntilDone, story.pollInterval, story.pollLimit) = (.max, 86_400, 172_800)
        story.cancelPollingAfter = "next poll"
        let backend = Backend(timeline: Timeline(), scenario: 8, style: style.rawValue, story: story)
        let run = await runScenario(on: backend, style, timeLimit: TestEnvironment.hangGuard)
        // The run ends within the test's time limit, far less than the day the wait would take.
        let cancelled = [
            TourStyle.bolts: "BFCancelledError()", .promiseKit: "\(PMKError.cancelled)", .fbl: "CancellationError()",
            .async: "CancellationError()",
        ]
        #expect(run.outcome == "error: \(cancelled[style]!)", "\(run.timeline)")
        #expect(run.steps("→ status").count == 1, "\(run.timeline)")
        #expect(run.index(of: "end: ") > run.index(of: "user taps Cancel"))
        #expect(await backend.stepsAfter(run).isEmpty, "\(run.timeline)")
    }

    @Test("8. 10,000 polls with no interval do not grow the stack", arguments: TourStyle.allCases)
    func pollingKeepsTheStackFlat(style: TourStyle) async {
        let measured = Locked((polls: 0, deepest: 0))  // one poll at a time: each starts after the last answered
        var story = Story()
        (story.pollsUntilDone, story.pollInterval, story.pollLimit, story.latency) = (10_000, 0, 3600, 0)
        story.onPoll = { measured.set((measured.get().polls + 1, max(measured.get().deepest, stackDepth()))) }
        let backend = Backend(timeline: Timeline(), scenario: 8, style: style.rawValue, story: story)
        // 30,000 queue hops, each behind whatever other suites have queued: over a minute on a loaded 2-core machine.
        let run = await runScenario(on: backend, style, timeLimit: 3 * TestEnvironment.hangGuard)
        #expect(run.outcome == "result: done", "\(run.outcome)")
        #expect(measured.get().polls == 10_000)
        // A poll that ran inside the one before would add at least one frame (16 bytes or more) a poll: 160 KB here.
        // Not measurable under the address sanitizer: it moves locals to a fake stack on the heap (to catch uses after
        // return), so the address of one says nothing about the thread's stack. The run and its polls are still checked.
        if !TestEnvironment.isAddressSanitized {
            #expect(measured.get().deepest < 64 * 1024, "deepest: \(measured.get().deepest) bytes")
        }
    }
}

@Suite("The simulated server")
struct BackendTests {
    /// Scenario 5 taps Cancel from this hook: however long the tapping thread is kept waiting, the response cannot
    /// arrive first. The hook here outlasts the request's latency three times over.
    @Test(.offThePool) func aStartedHookRunsBeforeTheResponseIsScheduled() async {
        let backend = Backend(timeline: Timeline(), scenario: 5, style: "test")
        backend.whenStarted("fetch x") {
            Thread.sleep(forTimeInterval: Double(3 * backend.latency) / 1000)
            backend.note("hook done")
        }
        await withCheckedContinuation { continuation in
            backend.fetch("x") { _ in continuation.resume() }
        }
        let steps = backend.timeline.all.map(\.step)
        #expect(steps == ["→ fetch x", "hook done", "← fetch x = x-data"], "\(steps)")
    }
}

@Suite("The guide's GCD baseline")
struct GCDBaselineTests {
    @Test func groupNotifiesOnceBothRequestsHaveAnswered() async {
        let backend = Backend(timeline: Timeline(), scenario: 1, style: "GCD")
        let queue = DispatchQueue(label: "background")
        let screen = await withCheckedContinuation { continuation in
            showScreen(backend, on: queue) { continuation.resume(returning: $0) }
        }
        #expect(screen == "screen(data1-data, data2-data)")
        let steps = backend.timeline.all.map(\.step)
        let push = steps.firstIndex { $0.hasPrefix("push screen") } ?? -1
        #expect(push > (steps.firstIndex { $0.hasPrefix("← fetch data1") } ?? .max))
        #expect(push > (steps.firstIndex { $0.hasPrefix("← fetch data2") } ?? .max))
    }
}
