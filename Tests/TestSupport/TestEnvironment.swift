import Foundation

/// Facts about the test process that time limits depend on.
///
/// Under the thread sanitizer everything runs many times slower, and on a 2-core machine the Swift concurrency pool
/// has two threads that other suites' blocking waits can hold for a while; limits that are generous in a normal run
/// are too short there. Tests scale their limits with ``limitScale`` instead of asserting anything about time.
public enum TestEnvironment {
    /// Whether the process runs under the thread sanitizer (`swift test --sanitize=thread`).
    public static let isThreadSanitized = processHasSymbol("__tsan_init")

    /// Whether the process runs under the address sanitizer (`swift test --sanitize=address`).
    ///
    /// Tests that measure the stack or expect a crash's signal say what they expect under it instead: its locals live
    /// on a "fake stack" on the heap (to catch uses after return), and it reports a stack overflow itself and exits
    /// with status 1 instead of dying of `SIGSEGV`.
    public static let isAddressSanitized = processHasSymbol("__asan_init")

    /// Whether the process (the executable or a library loaded with it) defines `symbol`: how a sanitizer's runtime is
    /// found.
    private static func processHasSymbol(_ symbol: String) -> Bool {
        guard let process = dlopen(nil, RTLD_NOW) else { return false }
        return dlsym(process, symbol) != nil
    }

    /// `PROMISES_STRESS=1`: long stress variants run.
    public static let isStress = ProcessInfo.processInfo.environment["PROMISES_STRESS"] == "1"

    /// How much longer than in a normal run a wait may take: 10 under either sanitizer or in stress mode, else 1.
    public static let limitScale: Double = isThreadSanitized || isAddressSanitized || isStress ? 10 : 1

    /// The longest a test waits for something that must happen and only takes CPU time to get there (a conformance
    /// clause building 100,000-step chains, FBLStyle's process-wide group emptying): 120 s, times ``limitScale``.
    ///
    /// It guards against hangs only. `swift test` runs every test of the process at once, so such work shares the
    /// cores with all the others and with whatever else the machine runs: on 2 cores with three busy processes beside
    /// it, a clause that takes 3 s of CPU alone took over 30 s. A test never checks that work was fast.
    public static let hangGuard: Double = 120 * limitScale

    /// How many steps the long-chain tests build: 1,000,000, or 100,000 under either sanitizer (unless
    /// `PROMISES_STRESS=1`).
    ///
    /// Those tests check that running and freeing a chain neither recurses nor overflows the stack; the plain
    /// `swift test` run checks that at a million steps. Under a sanitizer every step costs many times more and the
    /// point is data races (thread sanitizer) or memory errors and leaks (address sanitizer), which a 100,000-step
    /// chain meets in the same code; a recursive run or release would still overflow the stack at that depth, whose
    /// frames the sanitizers make larger.
    public static let longChainLength = (isThreadSanitized || isAddressSanitized) && !isStress ? 100_000 : 1_000_000

    /// How many links the matrices of long chains on a small stack build (`EveryLinkStackTests`, one per style, and
    /// `ConversionChainTests`): 5,000, 600 under either sanitizer, and ``longChainLength`` with `PROMISES_STRESS=1`;
    /// `PROMISES_SMALL_STACK_LINKS=<n>` sets it to n instead (say 100,000, every link kind and outcome at that length
    /// without the million of the stress run).
    ///
    /// On a 512 KiB stack a recursion per link overflows within a few hundred links of a debug build (about 1.5 KiB a
    /// link, 2.6 KiB under the address sanitizer): 5,000 is many times that, and catches a recursion of a little over
    /// 100 bytes a link too. Under a sanitizer the matrices look for races and memory errors, which every chain meets
    /// in its first links; 600 links still overflow with a recursion of 1 KiB a link, and their 700 chains, each many
    /// times slower there, no longer starve the rest of the run. The matrices run over 700
    /// chains, many hopping to Dispatch's global queues at every link, beside every other test of the process; longer
    /// chains in the plain run only kept those queues busy for longer, and the guide's scenarios, which wait on them
    /// with a time limit, ran out of it. ``longChainLength`` is still what the common forms reach in every run.
    public static let smallStackChainLength =
        ProcessInfo.processInfo.environment["PROMISES_SMALL_STACK_LINKS"].flatMap { Int($0) }
        ?? (isStress ? longChainLength : (isThreadSanitized || isAddressSanitized ? 600 : 5_000))

    /// ``hangGuard`` in whole minutes, for Swift Testing's `.timeLimit(.minutes(_:))`.
    public static let hangGuardMinutes = Int((hangGuard / 60).rounded(.up))
}
