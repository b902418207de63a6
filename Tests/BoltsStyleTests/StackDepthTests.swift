import BoltsStyle
import Dispatch
import TestSupport
import Testing

/// A million-step chain (``TestEnvironment/longChainLength``) must neither overflow the stack while it runs nor while
/// it is freed.
///
/// The tests run one at a time (`.serialized`): each keeps a thread busy building and running a long chain, and
/// several at once gain nothing on a 2-core machine. Under the thread sanitizer they lose a great deal: an
/// unspecialized debug build asks the Swift runtime for a generic type's metadata at every step, the runtime's
/// metadata cache takes a lock for it, and threads contending on that lock spent most of the suite in the kernel.
@Suite("Long chains", .offThePool, .serialized)
struct StackDepthTests {
    static let length = TestEnvironment.longChainLength

    @Test func millionImmediateContinuations() {
        let source = BFTaskCompletionSource<Int>()
        var task = source.task
        for _ in 0..<Self.length {
            task = task.continueWith(.immediate) { $0.result! + 1 }
        }
        source.set(result: 0)
        #expect(task.result == Self.length)
    }

    /// `.default` hops to a queue every so many inline steps: on a busy machine a million steps take minutes, so the
    /// wait fails only when no step ran for the hang guard.
    @Test func millionDefaultContinuations() {
        let source = BFTaskCompletionSource<Int>()
        let steps = Locked(0)
        var task = source.task
        for _ in 0..<Self.length {
            task = task.continueOnSuccessWith {
                steps.withLock { $0 += 1 }
                return $0 + 1
            }
        }
        source.set(result: 0)
        task.waitForTest(progress: { steps.withLock { $0 } })
        #expect(task.result == Self.length)
    }

    @Test func millionFollowedTasks() {
        // Each continuation returns a pending task completed by the next one: a long line of
        // tasks completing each other when the last source is set.
        let last = BFTaskCompletionSource<Int>()
        var followed = last.task
        for _ in 0..<Self.length {
            let previous = followed
            followed = BFTask(0).continueWithTask(.immediate) { _ in previous }
        }
        last.set(result: 7)
        #expect(followed.result == 7)
    }

    @Test func completingDeepInsideNestingKeepsCallbacksInOrder() {
        // Past `.immediate`'s nesting limit a completed task enqueues the running of its
        // callbacks on the thread's trampoline; callbacks added meanwhile still run after the earlier ones.
        let log = EventLog()
        let source = BFTaskCompletionSource<Int>()
        var task = source.task
        for step in 0..<100 {
            task = task.continueWith(.immediate) { previous in
                if step == 90 {
                    let inner = BFTaskCompletionSource<Int>()
                    inner.task.continueWith(.immediate) { _ in log.append("first") }
                    inner.task.continueWith(.immediate) { _ in log.append("second") }
                    inner.set(result: 1)
                    inner.task.continueWith(.immediate) { _ in log.append("third") }
                }
                return previous.result! + 1
            }
        }
        source.set(result: 0)
        #expect(task.result == 100)
        #expect(log.events == ["first", "second", "third"])
    }

    /// The one divergence from Bolts-Swift the differential traces keep (DeclaredDivergences): past 64 nested levels
    /// `.immediate` enqueues the next link on the thread's trampoline, so a sibling continuation of an earlier link,
    /// waiting in that link's callbacks, runs before it. Bolts-Swift nests every level and runs the sibling last.
    @Test(arguments: [64, 65])
    func immediateChainPast64LevelsLetsAnEarlierSiblingRunFirst(links: Int) {
        let log = EventLog()
        let source = BFTaskCompletionSource<Int>()
        var chain = [source.task]
        for link in 1...links {
            chain.append(
                chain[link - 1].continueWith(.immediate) { _ -> Int in
                    log.append("h\(link)")
                    return link
                })
        }
        chain[1].continueWith(.immediate) { _ in log.append("sibling") }
        source.set(result: 0)
        let inOrder = (1...links).map { "h\($0)" }
        if links <= 64 {
            #expect(log.events == inOrder + ["sibling"])
        } else {
            #expect(log.events == inOrder.prefix(64) + ["sibling"] + inOrder.dropFirst(64))
        }
    }

    @Test func millionTaskSerialLoop() {
        // The "serial deletes" pattern: a loop of continueWithTask, each step pending until run.
        let start = BFTaskCompletionSource<Int>()
        var task = start.task
        for _ in 0..<Self.length {
            task = task.continueWithTask(.immediate) { previous in BFTask(previous.result! + 1) }
        }
        start.set(result: 0)
        #expect(task.result == Self.length)
    }

    @Test func droppingAPendingMillionChainFreesIt() {
        weak var lastTask: BFTask<Int>?
        do {
            let source = BFTaskCompletionSource<Int>()
            var task = source.task
            for _ in 0..<Self.length {
                task = task.continueWith(.immediate) { $0.result! + 1 }
            }
            lastTask = task
        }
        #expect(lastTask == nil)
    }

    @Test func droppingAPendingMillionFollowChainFreesIt() {
        weak var firstSource: BFTaskCompletionSource<Int>?
        do {
            let source = BFTaskCompletionSource<Int>()
            firstSource = source
            var followed = source.task
            for _ in 0..<Self.length {
                let previous = followed
                followed = BFTask(0).continueWithTask(.immediate) { _ in previous }
            }
        }
        #expect(firstSource == nil)
    }

    @Test func millionWhenAllNesting() {
        let source = BFTaskCompletionSource<Void>()
        var task = source.task
        for _ in 0..<100_000 {
            task = BFTask.whenAll([task])
        }
        source.set(result: ())
        #expect(task.completed && !task.faulted)
    }
}
