import Dispatch
import Foundation

/// A thread with a stack far larger than a chain's recursion needs (256 MiB reserved, which costs address space, not
/// memory), on which the deep-chain clauses build, settle and drop their chains.
///
/// A library that recurses once per link then does not crash the suite: the clause measures how deep the stack went
/// (``StackGrowth``) instead, and every runner (in process, in a child process, the command) reports the same
/// overflow the same way.
final class DeepStackThread: @unchecked Sendable {
    /// The stack each thread reserves.
    static let stackSize = 256 << 20

    /// The thread, once it runs.
    private let thread: Locked<Thread?> = Locked(nil)

    /// Whether the caller runs on this thread: only depths measured there compare with the address of its frame.
    var isCurrent: Bool { thread.withLock { $0 } === Thread.current }

    /// Runs `body` on a new thread with a ``stackSize`` stack and waits for it, for as long as `context` allows while
    /// `reached()` grows (``ClauseContext/waitWhileProgressing(_:_:of:longest:reached:)``); the case fails with "timed
    /// out waiting for `what`" when it does not end in time. Returns the most stack `body` used when `measured`
    /// (``measuringDepth(_:)``), 0 otherwise.
    func run(
        _ what: String, in context: ClauseContext, measured: Bool, reached: () -> Int,
        body: @escaping @Sendable () -> Void
    ) throws -> Int {
        let done = Recorder<Int>()
        let started = Thread { [self] in
            thread.withLock { $0 = Thread.current }
            let depth = measured ? Self.measuringDepth(body) : 0
            if !measured { body() }
            thread.withLock { $0 = nil }
            done.record(depth)
        }
        started.stackSize = Self.stackSize
        started.start()
        try context.waitWhileProgressing(done, what, of: 1, reached: reached)
        return done.snapshot[0]
    }

    /// The address of a local in the frame of this call: how far the caller's stack reaches, to compare with another
    /// address taken on the same thread (the stack grows down).
    @inline(never)
    static func stackAddress() -> UInt {
        var marker = 0
        return withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
    }

    /// A short sleep between two polls.
    static func pause() {
        Thread.sleep(forTimeInterval: 0.002)
    }

    /// The stack below the caller that ``measuringDepth(_:)`` watches: enough for 1,000 links of 8 KiB each.
    static let watchedBytes = 8 << 20

    /// Runs `body` here and returns the most stack it used below this call, in bytes: the stack below is filled with
    /// a pattern first, and afterwards the deepest word no longer holding it shows how far `body`, and whatever it
    /// called, reached. ``watchedBytes`` when `body` reached the end of the watched stretch (it used that much at
    /// least). Only for a ``DeepStackThread``, whose stack is far larger than the stretch watched.
    @inline(never)
    static func measuringDepth(_ body: () -> Void) -> Int {
        let pattern: UInt64 = 0x5A5A_A5A5_5A5A_A5A5
        let margin = 64 << 10  // this function's own calls stay above the stretch
        let top = stackAddress() - UInt(margin)
        let words = watchedBytes / 8
        guard let bottom = UnsafeMutablePointer<UInt64>(bitPattern: top - UInt(watchedBytes)) else { return 0 }
        bottom.update(repeating: pattern, count: words)
        body()
        var untouched = 0
        while untouched < words && bottom[untouched] == pattern { untouched += 1 }
        return untouched == words ? 0 : watchedBytes - untouched * 8 + margin
    }
}
