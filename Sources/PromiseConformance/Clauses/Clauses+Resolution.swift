import Dispatch
import Foundation

// A+ 2.3.1 and 2.3.2: the resolution procedure for a promise returned from a handler.

/// Holds a derived promise so that its own handler can return it (A+ 2.3.1).
final class PromiseBox: Sendable {
    private let promise = Locked<ErasedPromise?>(nil)

    func set(_ value: ErasedPromise) { promise.withLock { $0 = value } }
    var value: ErasedPromise? { promise.withLock { $0 } }
}

/// The derived promises of 2.3.1 that a library left waiting on themselves (no cycle detection, as BoltsStyle
/// declares): each is a cycle inside the library that nothing can free. They are kept reachable here, so that a leak
/// checker (LeakSanitizer, in this package's CI) does not report the one deviation the clause already reports.
let promisesWaitingOnThemselves = Locked<[ErasedPromise]>([])

let resolutionClauses: [Clause] = [
    Clause(
        "2.3.1", "returning the derived promise itself rejects it",
        "If a handler returns the very promise `then` returned, that promise is rejected (with a TypeError in "
            + "JavaScript) instead of waiting on itself forever.",
        waitsForAbsence: false,
        cases: ["from onFulfilled", "from onRejected", "from onFulfilled on a serial queue"]
    ) { context in
        let queue = context.queues.marked("cycle").queue
        for (name, settlement, queue) in [
            ("from onFulfilled", Settlement.fulfil(Sentinel(1)), DispatchQueue?.none),
            ("from onRejected", .reject(SentinelError(1)), nil),
            ("from onFulfilled on a serial queue", .fulfil(Sentinel(1)), queue),
        ] {
            try context.inCase(name) {
                let pending = context.pending()
                let box = PromiseBox()
                let ran = Recorder<Int>()
                let returnSelf: @Sendable () -> HandlerResult<ErasedPromise> = {
                    defer { ran.record(1) }
                    // Sentinel(-1): the handler ran before `then` returned, so it could not see its promise.
                    return box.value.map { .adopt($0) } ?? .fulfill(Sentinel(-1))
                }
                let derived = context.then(
                    pending.promise, on: queue, onFulfilled: { _ in returnSelf() }, onRejected: { _ in returnSelf() })
                box.set(derived)
                let recorder = context.observe(derived)
                defer {
                    if recorder.snapshot.isEmpty { promisesWaitingOnThemselves.withLock { $0.append(derived) } }
                }
                context.settle(pending, settlement)
                let what = "the promise returned from its own handler"
                try ran.wait(for: 1, "the handler", in: context.clock)
                // A library without cycle detection never settles it: wait a bounded time, not the clause's limit.
                try recorder.wait(
                    for: 1,
                    "\(what) to be rejected (no cycle detected within \(context.clock.cycleDetectionLimit) seconds)",
                    in: context.clock, until: .now() + context.clock.cycleDetectionLimit)
                try context.expect(
                    recorder.snapshot[0].isRejected,
                    "expected \(what) to be rejected, but it was \(recorder.snapshot[0])")
            }
        }
    },
    Clause(
        "2.3.2.1", "adopting a pending promise waits",
        "If a handler returns a pending promise x, the derived promise remains pending until x is fulfilled or "
            + "rejected.",
        waitsForAbsence: true,
        cases: ["x fulfilled later", "x rejected later", "x never settled"]
    ) { context in
        for (name, settlement) in [
            ("x fulfilled later", Settlement.fulfil(Sentinel(2))), ("x rejected later", .reject(SentinelError(2))),
        ] {
            try context.inCase(name) {
                let x = context.pending()
                let derived = context.then(
                    context.adapter.fulfilled(Sentinel(1)), onFulfilled: { _ in .adopt(x.promise) })
                let recorder = context.observe(derived)
                context.clock.waitGrace()
                try context.expect(recorder.count == 0, "the derived promise settled before x: \(recorder.snapshot)")
                context.settle(x, settlement)
                try context.expect(recorder, settlement.outcome, "the derived promise")
            }
        }
        try context.inCase("x never settled") {
            let x = context.pending()
            let derived = context.then(
                context.adapter.rejected(SentinelError(1)), onRejected: { _ in .adopt(x.promise) })
            try context.expect.pending(derived, "the derived promise")
            withExtendedLifetime(x.fulfill) {}
        }
    },
    Clause(
        "2.3.2.2", "adopting a fulfilled promise",
        "If/when x is fulfilled, the derived promise is fulfilled with the same value.",
        waitsForAbsence: false,
        cases: ClauseContext.eachWayCases("fulfilled", prefix: "x ")
    ) { context in
        try context.eachWay(.fulfil(Sentinel(2)), prefix: "x ") { x in
            let viaFulfilled = context.then(context.adapter.fulfilled(Sentinel(1)), onFulfilled: { _ in .adopt(x) })
            let viaRejected = context.then(context.adapter.rejected(SentinelError(1)), onRejected: { _ in .adopt(x) })
            return {
                try context.expect.fulfilled(viaFulfilled, with: Sentinel(2), "x returned from onFulfilled")
                try context.expect.fulfilled(viaRejected, with: Sentinel(2), "x returned from onRejected")
            }
        }
    },
    Clause(
        "2.3.2.3", "adopting a rejected promise",
        "If/when x is rejected, the derived promise is rejected with the same reason.",
        waitsForAbsence: false,
        cases: ClauseContext.eachWayCases("rejected", prefix: "x ")
    ) { context in
        try context.eachWay(.reject(SentinelError(2)), prefix: "x ") { x in
            let viaFulfilled = context.then(context.adapter.fulfilled(Sentinel(1)), onFulfilled: { _ in .adopt(x) })
            let viaRejected = context.then(context.adapter.rejected(SentinelError(1)), onRejected: { _ in .adopt(x) })
            return {
                try context.expect.rejected(viaFulfilled, with: SentinelError(2), "x returned from onFulfilled")
                try context.expect.rejected(viaRejected, with: SentinelError(2), "x returned from onRejected")
            }
        }
    },
]
