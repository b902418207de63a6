import PromisePlumbing
import TestSupport
import Testing

/// The shared trampoline, on slots of its own (so that no style's state on the test thread is touched): the depth
/// limit, the order of enqueued work, one slot's count kept apart from another's, and flattened releases.
@Suite struct TrampolineTests {
    /// A slot of the tests' own.
    static let shallow = TrampolineSlot(style: "TrampolineTests")
    /// Another slot, as another style's.
    static let other = TrampolineSlot(style: "TrampolineTests")

    /// Below the limit (two here) a run happens at once, nested; at the limit it is enqueued, and the outermost run drains what
    /// was enqueued, in the order it was enqueued, before it returns.
    @Test func runsPastTheLimitWaitForTheOutermostRun() async {
        let (log, depthAfter) = await SmallStackThread.run {
            var log: [String] = []
            let trampoline = Self.shallow.current
            trampoline.runOrEnqueue(below: 2) {
                log.append("1 at depth \(trampoline.depth)")
                trampoline.runOrEnqueue(below: 2) {
                    log.append("2 at depth \(trampoline.depth)")
                    trampoline.runOrEnqueue(below: 2) { log.append("4 at depth \(trampoline.depth)") }
                    trampoline.runOrEnqueue(below: 2) { log.append("5 at depth \(trampoline.depth)") }
                    log.append("3")
                }
                log.append("after 3")
            }
            return (log, trampoline.depth)
        }
        #expect(log == ["1 at depth 1", "2 at depth 2", "3", "after 3", "4 at depth 1", "5 at depth 1"])
        #expect(depthAfter == 0)
    }

    /// Each slot counts its own runs: a run on one style's trampoline does not make another style's deeper.
    @Test func slotsCountApart() async {
        let (distinctTokens, seen) = await SmallStackThread.run {
            let one = Self.shallow.current
            let two = Self.other.current
            var seen: [Bool] = []
            one.run {
                one.run { seen = [one.depth == 2, two.depth == 0, one.isAt(limit: 2), two.isAt(limit: 2)] }
            }
            return (one.token != two.token, seen)
        }
        #expect(distinctTokens)
        #expect(seen == [true, true, true, false])
    }

    /// A marked run is counted in `markedDepth` too (BoltsStyle's `.default`); a plain one is not.
    @Test func markedRunsAreCountedApart() async {
        let seen = await SmallStackThread.run {
            let trampoline = Self.shallow.current
            var seen: [Int] = []
            trampoline.runMarked {
                trampoline.run { seen = [trampoline.depth, trampoline.markedDepth] }
            }
            return seen + [trampoline.markedDepth]
        }
        #expect(seen == [2, 1, 0])
    }

    /// Work enqueued outside any run waits for the next outermost run, or for `runEnqueuedBeforeBlocking`.
    @Test func runEnqueuedBeforeBlockingRunsWhatWasEnqueued() async {
        let (before, after, depth) = await SmallStackThread.run {
            var log: [Int] = []
            let trampoline = Self.shallow.current
            trampoline.enqueue { log.append(1) }
            trampoline.enqueue {
                log.append(2)
                trampoline.enqueue { log.append(3) }
            }
            let before = log
            trampoline.runEnqueuedBeforeBlocking()
            return (before, log, trampoline.depth)
        }
        #expect(before.isEmpty)
        #expect(after == [1, 2, 3])
        #expect(depth == 0)
    }

    /// A chain of 100,000 objects, each freeing the next from its `deinit` through `release`, is let go of as a
    /// loop: the release does not recurse through the deinits (it would overflow a 512 KiB stack), and every object
    /// is freed.
    @Test func releasingALongChainDoesNotRecurse() async {
        let count = 100_000
        let freed = await SmallStackThread.run {
            var freed = 0
            var head: Link? = nil
            for _ in 0..<count { head = Link(next: head) { freed += 1 } }
            Self.shallow.current.release(head.take() as Any)
            return freed
        }
        #expect(freed == count)
    }
}

/// One link of a chain whose `deinit` hands the next link to the trampoline's `release` instead of freeing it nested.
private final class Link {
    var next: Link?
    let onDeinit: () -> Void

    init(next: Link?, onDeinit: @escaping () -> Void) {
        self.next = next
        self.onDeinit = onDeinit
    }

    deinit {
        onDeinit()
        if let next {
            self.next = nil
            TrampolineTests.shallow.current.release(next as Any)
        }
    }
}
