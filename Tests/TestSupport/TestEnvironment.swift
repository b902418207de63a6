import Foundation

/// Facts about the test process that time limits depend on.
///
/// Under the thread sanitizer everything runs many times slower, and on a 2-core machine the Swift concurrency pool
/// has two threads that other suites' blocking waits can hold for a while; limits that are generous in a normal run
/// are too short there. Tests scale their limits with ``limitScale`` instead of asserting anything about time.
public enum TestEnvironment {
    /// Whether the process runs under the thread sanitizer (`swift test --sanitize=thread`).
    public static let isThreadSanitized: Bool = {
        guard let process = dlopen(nil, RTLD_NOW) else { return false }
        return dlsym(process, "__tsan_init") != nil
    }()

    /// `PROMISES_STRESS=1`: long stress variants run.
    public static let isStress = ProcessInfo.processInfo.environment["PROMISES_STRESS"] == "1"

    /// How much longer than in a normal run a wait may take: 10 under the thread sanitizer or in stress mode, else 1.
    public static let limitScale: Double = isThreadSanitized || isStress ? 10 : 1
}
