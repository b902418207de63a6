/// An asynchronous lock shared by every test target of the package.
///
/// `swift test` runs all test targets in one process and their suites in parallel, so a `.serialized` suite only
/// orders its own tests. Tests that install process-wide state (PromiseKitStyle's global `conf.logHandler`) or that
/// assert on it take this lock, so that, for instance, the conformance suite settling PromiseKit promises twice on
/// purpose cannot add events to a log another test is counting.
public enum ProcessWideTestLock {
    /// Runs `body` while holding the lock; callers queue in arrival order.
    public static func withLock<T: Sendable>(_ body: @Sendable () async throws -> T) async rethrows -> T {
        await gate.acquire()
        do {
            let result = try await body()
            await gate.release()
            return result
        } catch {
            await gate.release()
            throw error
        }
    }

    private static let gate = Gate()

    private actor Gate {
        private var held = false
        private var waiters: [CheckedContinuation<Void, Never>] = []

        func acquire() async {
            if !held {
                held = true
                return
            }
            await withCheckedContinuation { waiters.append($0) }
        }

        func release() {
            if waiters.isEmpty {
                held = false
            } else {
                waiters.removeFirst().resume()
            }
        }
    }
}
