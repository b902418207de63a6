import BoltsStyle
import Dispatch
import Foundation
import TestSupport
import Testing

/// Behaviours of Bolts-Swift 1.5.0 that the differential traces found and BoltsStyle now matches, one test each, with
/// the smallest program that showed it (docs/differential-traces.md).
@Suite("Found by the differential traces", .offThePool)
struct TraceFindingsTests {
    /// `n0=cancelled; n1=error E0; n2=whenAll n0 n1`: Bolts-Swift's n2 is cancelled. A cancelled input wins over a
    /// faulted one, whatever their order.
    @Test func whenAllIsCancelledWhenAnInputWasCancelledEvenIfAnotherFaulted() {
        struct Failure: Error {}
        let cancelledFirst = BFTask<Int>.whenAll([BFTask<Int>.cancelledTask(), BFTask<Int>(error: Failure())])
        let faultedFirst = BFTask<Int>.whenAll([BFTask<Int>(error: Failure()), BFTask<Int>.cancelledTask()])
        for task in [cancelledFirst, faultedFirst] {
            #expect(task.cancelled)
            #expect(!task.faulted)
            #expect(task.error == nil)
        }
        let results = BFTask<Int>.whenAllResult([BFTask<Int>(error: Failure()), BFTask<Int>.cancelledTask()])
        #expect(results.cancelled)
    }

    /// A chain of `.default` continuations on a pending task: Bolts-Swift runs 21 of them nested on the thread that
    /// sets the result, and dispatches the 22nd to a global queue.
    @Test func theTwentyFirstNestedDefaultContinuationRunsInlineAndTheTwentySecondHops() {
        let ran = chain(immediate: 0, default: 22)
        #expect(ran.inline == 21)
        #expect(ran.hopped == [22])
    }

    /// Twenty `.immediate` continuations, then `.default` ones, on a pending task: Bolts-Swift counts only the
    /// `.default` runs against its limit, so 21 `.default` continuations still run inline under the 20 `.immediate`
    /// ones, and the 22nd hops.
    @Test func immediateRunsDoNotCountTowardsTheDefaultLimit() {
        let ran = chain(immediate: 20, default: 22)
        #expect(ran.inline == 41)
        #expect(ran.hopped == [42])
    }

    /// `n0=tcs; n1=withTask n0 d n0; n2=with n1 d v1; n3=with n0 d v2; set n0 5`: Bolts-Swift runs h1, h2, h3. The
    /// continuation of n1 returns n0, whose callbacks are running: n1 adds its callback to n0 on the completing thread,
    /// which runs it at once, so n1 completes and h2 runs before n0's next callback, h3.
    @Test func aContinuationAddedByTheCompletingThreadWhileItDrainsRunsAtOnce() {
        let source = BFTaskCompletionSource<Int>()
        nonisolated(unsafe) var log: [String] = []  // every continuation runs inline on this thread
        let followed = source.task.continueWithTask { _ -> BFTask<Int> in
            log.append("h1")
            return source.task
        }
        followed.continueWith { _ in log.append("h2") }
        source.task.continueWith { _ in log.append("h3") }
        source.set(result: 5)
        #expect(log == ["h1", "h2", "h3"])
    }

    /// Sets up a chain of `immediate` `.immediate` continuations followed by `default` `.default` ones on a pending
    /// task, completes the task on this thread and waits for the last link: how many links ran on this thread, and
    /// which (counted from 1) ran elsewhere.
    private func chain(immediate: Int, default defaults: Int) -> (inline: Int, hopped: [Int]) {
        let source = BFTaskCompletionSource<Int>()
        nonisolated(unsafe) let here = Thread.current
        let inline = Counter()
        let hopped = Locked<[Int]>([])
        var task = source.task
        for link in 1...(immediate + defaults) {
            task = task.continueWith(link <= immediate ? .immediate : .default) { _ -> Int in
                if Thread.current === here { inline.increment() } else { hopped.withLock { $0.append(link) } }
                return link
            }
        }
        source.set(result: 0)
        #expect(task.waitUntilCompleted(timeout: generousTimeout))
        return (inline.value, hopped.withLock { $0 })
    }
}
