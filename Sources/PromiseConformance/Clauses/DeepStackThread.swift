import Dispatch
import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

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

    /// Runs `body` on a new thread with a ``stackSize`` stack and waits for it, for as long as `clock` allows while
    /// `reached()`, the links of `total` the chain has passed, grows
    /// (``CaseClock/waitWhileProgressing(_:_:of:longest:reached:)``); the case fails with "timed out waiting for
    /// `what`", saying how many of the `total` links were passed, when it does not end in time. Returns the most stack `body` used when `measured`
    /// (``measuringDepth(_:)``), 0 otherwise.
    func run(
        _ what: String, in clock: CaseClock, measured: Bool, of total: Int, reached: () -> Int,
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
        try clock.waitWhileProgressing(done, what, of: total, reached: reached)
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
    /// least); 0 where the thread's stack cannot be read. Only for a ``DeepStackThread``, whose stack is far larger
    /// than the stretch watched, at its start.
    ///
    /// The stretch starts below the address of a local here, when that lies in the thread's stack. The address
    /// sanitizer may keep locals on a stack of its own (its check of a use after return), and then the stretch starts
    /// a fixed distance below the top of the thread's stack, which a thread only just started has not reached: the
    /// calls themselves (their return addresses and saved registers) still go on the thread's stack.
    @inline(never)
    static func measuringDepth(_ body: () -> Void) -> Int {
        let pattern: UInt64 = 0x5A5A_A5A5_5A5A_A5A5
        let margin = 64 << 10  // this function's own calls stay above the stretch
        let local = stackAddress()
        let words = watchedBytes / 8
        guard let stack = currentStack(), stack.count > startDepth + margin + watchedBytes else {
            body()  // a stack the suite cannot see: nothing measured
            return 0
        }
        let onStack = local > stack.lowerBound && local < stack.upperBound
        let top = (onStack ? local : stack.upperBound - UInt(startDepth)) - UInt(margin)
        let bottom = UnsafeMutablePointer<UInt64>(bitPattern: top - UInt(watchedBytes))!
        bottom.update(repeating: pattern, count: words)
        body()
        var untouched = 0
        while untouched < words && bottom[untouched] == pattern { untouched += 1 }
        return untouched == words ? 0 : watchedBytes - untouched * 8 + margin
    }

    /// How far below the top of its stack a thread only just started may already be, at most: its start function and
    /// Foundation's, and ``run(_:in:measured:reached:body:)``'s closure.
    static let startDepth = 192 << 10

    /// The calling thread's stack, from its lowest address to its top; nil where the C library does not say.
    static func currentStack() -> Range<UInt>? {
        #if canImport(Darwin)
            let top = UInt(bitPattern: pthread_get_stackaddr_np(pthread_self()))
            return (top - UInt(pthread_get_stacksize_np(pthread_self())))..<top
        #elseif os(Linux)
            guard let getAttributes else { return nil }
            var attributes = pthread_attr_t()
            guard getAttributes(pthread_self(), &attributes) == 0 else { return nil }
            defer { pthread_attr_destroy(&attributes) }
            var lowest: UnsafeMutableRawPointer?
            var size = 0
            guard pthread_attr_getstack(&attributes, &lowest, &size) == 0, let lowest else { return nil }
            return UInt(bitPattern: lowest)..<(UInt(bitPattern: lowest) + UInt(size))
        #else
            return nil
        #endif
    }

    #if os(Linux)
        /// Glibc's `pthread_getattr_np`, which it declares only for `_GNU_SOURCE` (which Swift's Glibc module leaves
        /// out), looked up by name as `RacingThreads` looks up the affinity functions; nil where the C library has none.
        private static let getAttributes: (@convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32)? =
            {
                let defaultHandle: UnsafeMutableRawPointer? = nil  // RTLD_DEFAULT
                return dlsym(defaultHandle, "pthread_getattr_np").map {
                    unsafeBitCast(
                        $0, to: (@convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32).self)
                }
            }()
    #endif
}
