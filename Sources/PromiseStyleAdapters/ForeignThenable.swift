import Dispatch
import Foundation
import PromiseConformance

/// Runs the Promises/A+ resolution procedure (2.3.3) on a foreign ``PromiseConformance/Thenable`` and reports its
/// outcome once.
///
/// None of the three styles has a notion of "any object with a `then` method": each assimilates only its own kind of
/// foreign value (a PromiseKit `Thenable`, a task returned from a Bolts continuation, a promise returned from a Google
/// block). The adapters present the suite's thenables in that form, and this type is the part they share: it calls
/// `then` once, lets the first callback win, ignores later calls and a throw after a call, and follows nested
/// thenables. Each adapter then settles its own style's promise with the single outcome, through that style's API.
enum ForeignThenable {
    /// Calls `settle` at most once with the outcome of `thenable`.
    static func resolve(_ thenable: any Thenable, _ settle: @escaping @Sendable (Result<Sentinel, any Error>) -> Void) {
        let once = Once()
        do {
            try thenable.then(
                { value in
                    guard once.claim() else { return }
                    switch value {
                    case .value(let sentinel):
                        settle(.success(sentinel))
                    case .thenable(let next):
                        resolve(next, settle)
                    }
                },
                { error in
                    guard once.claim() else { return }
                    settle(.failure(error))
                }
            )
        } catch {
            if once.claim() { settle(.failure(error)) }
        }
    }
}

/// A flag that can be claimed once, from any thread.
///
/// Guarded by an `NSLock` (a pthread mutex, which the thread sanitizer understands) rather than a
/// `Synchronization.Atomic`, which would need macOS 15 / iOS 18.
final class Once: @unchecked Sendable {
    private let lock = NSLock()
    private var claimed = false

    /// Returns `true` to the first caller only.
    func claim() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        let first = !claimed
        claimed = true
        return first
    }
}
