// The barrier behind every box (Core/Barrier.swift): writers enter one at a time and never beside a reader, readers
// never beside a writer, however many threads wait. Threads that find it taken wait in the contended loops
// (`writeContended`, the reader's retry), which is the path these tests drive.

import Dispatch
import Foundation
import Synchronization
import Testing

@testable import PromiseKitStyle

/// A barrier with counters of who is inside it, shared by the test's threads.
///
/// `@unchecked Sendable`: `writes` is changed only inside the barrier's writes and read only after the threads end.
private final class Watched: @unchecked Sendable {
    let barrier = Barrier()
    let writersInside = Atomic(0)
    let readersInside = Atomic(0)
    /// Times a thread inside found someone it must not be beside.
    let overlaps = Atomic(0)
    var writes = 0

    func write() {
        barrier.sync(flags: .barrier) {
            let writers = writersInside.add(1, ordering: .sequentiallyConsistent).newValue
            if writers != 1 || readersInside.load(ordering: .sequentiallyConsistent) != 0 {
                overlaps.add(1, ordering: .relaxed)
            }
            writes += 1
            writersInside.subtract(1, ordering: .sequentiallyConsistent)
        }
    }

    func read() {
        barrier.sync {
            readersInside.add(1, ordering: .sequentiallyConsistent)
            if writersInside.load(ordering: .sequentiallyConsistent) != 0 { overlaps.add(1, ordering: .relaxed) }
            readersInside.subtract(1, ordering: .sequentiallyConsistent)
        }
    }
}

/// Counts the threads that are running, so that they start their work together.
private final class StartGate: Sendable {
    let arrived = Atomic(0)
}

@Suite("Barrier")
struct BarrierTests {
    static let threads = 4
    static let perThread = 20_000

    /// Runs `body(thread)` on `threads` threads of their own, released together once every one of them is
    /// running, so that they meet at the barrier instead of one finishing before the next starts.
    static func together(_ body: @escaping @Sendable (Int) -> Void) {
        let gate = StartGate()
        let finished = DispatchGroup()
        for thread in 0..<threads {
            finished.enter()
            Thread {
                gate.arrived.add(1, ordering: .sequentiallyConsistent)
                while gate.arrived.load(ordering: .sequentiallyConsistent) < threads { sched_yield() }
                body(thread)
                finished.leave()
            }.start()
        }
        finished.wait()
    }

    @Test func writersFromManyThreadsEnterOneAtATime() {
        let watched = Watched()
        Self.together { _ in
            for _ in 0..<Self.perThread { watched.write() }
        }
        #expect(watched.writes == Self.threads * Self.perThread)
        #expect(watched.overlaps.load(ordering: .relaxed) == 0)
    }

    @Test func readersAndWritersNeverShareIt() {
        let watched = Watched()
        Self.together { thread in
            for step in 0..<Self.perThread {
                if (thread + step).isMultiple(of: 2) { watched.write() } else { watched.read() }
            }
        }
        #expect(watched.writes == Self.threads * Self.perThread / 2)
        #expect(watched.overlaps.load(ordering: .relaxed) == 0)
    }
}
