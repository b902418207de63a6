// T threads released together on one piece of work each, timed from the release until the last one finished.

import Dispatch
import Foundation

/// Runs `work(index)` on `count` new threads at once and returns the nanoseconds from their release until the last
/// returned and then `until()` returned (waiting for the blocks the threads started, say). The threads are started
/// and parked before the clock starts, so that thread creation is not timed.
func timeThreads(
    _ count: Int, until: () -> Void = {}, _ work: @escaping @Sendable (Int) -> Void
) -> UInt64 {
    let ready = DispatchSemaphore(value: 0)
    let go = DispatchSemaphore(value: 0)
    let finished = DispatchGroup()
    for index in 0..<count {
        finished.enter()
        let thread = Thread {
            ready.signal()
            go.wait()
            work(index)
            finished.leave()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }
    for _ in 0..<count { ready.wait() }
    let start = DispatchTime.now().uptimeNanoseconds
    for _ in 0..<count { go.signal() }
    finished.wait()
    until()
    return DispatchTime.now().uptimeNanoseconds - start
}

/// `total` split over `threads` as evenly as possible: the share of thread `index`.
func share(of total: Int, threads: Int, index: Int) -> Int {
    total / threads + (index < total % threads ? 1 : 0)
}
