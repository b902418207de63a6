import Foundation
import PromiseConformance

/// How long the tests give each clause: generous, and much more under the thread sanitizer, which slows the
/// 100,000-step chains of `swift.deepChain` by an order of magnitude.
enum TestEnvironment {
    static let isThreadSanitized: Bool = {
        guard let process = dlopen(nil, RTLD_NOW) else { return false }
        return dlsym(process, "__tsan_init") != nil
    }()

    static let clauseTimeout: Duration = isThreadSanitized ? .seconds(600) : .seconds(30)
}
