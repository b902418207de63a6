import TestSupport
import Testing

/// The process-wide test lock's queue: one holder at a time, brief holds before long ones, each in arrival order.
@Suite struct ProcessWideTestLockTests {
    @Test func briefWaitersGoBeforeTheLongOnesEachInArrivalOrder() async {
        let gate = TestLockGate()
        let order = Locked<[String]>([])
        await gate.acquire(.long)
        await withTaskGroup(of: Void.self) { group in
            let arrivals: [(String, ProcessWideTestLock.Hold)] = [
                ("long 1", .long), ("brief 1", .brief), ("long 2", .long), ("brief 2", .brief),
            ]
            for (count, (name, hold)) in arrivals.enumerated() {
                group.addTask {
                    await gate.acquire(hold)
                    order.withLock { $0.append(name) }
                    await gate.release()
                }
                // The next one arrives only once this one waits.
                while await gate.waiting < count + 1 { await Task.yield() }
            }
            await gate.release()
        }
        #expect(order.withLock { $0 } == ["brief 1", "brief 2", "long 1", "long 2"])
        // The last holder freed the gate: the next caller gets it at once.
        await gate.acquire(.long)
        #expect(await gate.waiting == 0)
        await gate.release()
    }
}
