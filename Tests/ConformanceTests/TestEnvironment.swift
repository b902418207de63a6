import Foundation
import PromiseConformance

/// How long the tests give each clause: generous, and much more under the thread sanitizer (which slows the
/// 100,000-step chains of `swift.deepChain` by an order of magnitude) and in stress mode.
enum TestEnvironment {
    static let isThreadSanitized: Bool = {
        guard let process = dlopen(nil, RTLD_NOW) else { return false }
        return dlsym(process, "__tsan_init") != nil
    }()

    /// `PROMISES_STRESS=1`: the suite runs its heavy variants (1,000,000-step chains, thousands of races).
    static let isStress = ProcessInfo.processInfo.environment["PROMISES_STRESS"] == "1"

    static let clauseTimeout: Duration = isThreadSanitized || isStress ? .seconds(600) : .seconds(30)
}
