/// An asynchronous lock shared by every test target of the package.
///
/// `swift test` runs all test targets in one process and their suites in parallel, so a `.serialized` suite only
/// orders its own tests. Tests that install process-wide state (PromiseKitStyle's global `conf.logHandler`) or that
/// assert on it take this lock, so that, for instance, the conformance suite settling PromiseKit promises twice on
/// purpose cannot add events to a log another test is counting.
///
/// Holders say how long they hold it. The conformance runs over PromiseKitStyle hold it for a clause each, dozens of
/// clauses, some of which build thousands of chains: minutes in all on a busy machine. A test that only records the
/// log around a few promises (``Hold/brief``) goes before every long holder still waiting, so that it waits for the
/// one holding the lock and the brief ones before it, not for every clause queued since the run began.
public enum ProcessWideTestLock {
    /// How long a caller holds the lock, which decides its place in the queue.
    public enum Hold: Sendable {
        /// A few promises, a log recorded or `conf` changed around them: queued before every long holder.
        case brief
        /// A conformance clause or a replay: queued in arrival order behind the brief holders.
        case long
    }

    /// Runs `body` while holding the lock. Callers queue in arrival order, the brief ones before the long ones.
    public static func withLock<T: Sendable>(
        _ hold: Hold = .long, _ body: @Sendable () async throws -> T
    ) async rethrows -> T {
        await gate.acquire(hold)
        do {
            let result = try await body()
            await gate.release()
            return result
        } catch {
            await gate.release()
            throw error
        }
    }

    private static let gate = TestLockGate()
}

/// The queue behind ``ProcessWideTestLock``: one holder at a time, the brief waiters first, each lane in arrival order.
public actor TestLockGate {
    private var held = false
    private var briefWaiters: [CheckedContinuation<Void, Never>] = []
    private var longWaiters: [CheckedContinuation<Void, Never>] = []

    /// A free gate.
    public init() {}

    /// How many callers wait for the gate.
    public var waiting: Int { briefWaiters.count + longWaiters.count }

    /// Returns once the caller holds the gate.
    public func acquire(_ hold: ProcessWideTestLock.Hold) async {
        if !held {
            held = true
            return
        }
        await withCheckedContinuation { continuation in
            switch hold {
            case .brief: briefWaiters.append(continuation)
            case .long: longWaiters.append(continuation)
            }
        }
    }

    /// Hands the gate to the first brief waiter, else to the first long one, else frees it.
    public func release() {
        if !briefWaiters.isEmpty {
            briefWaiters.removeFirst().resume()
        } else if !longWaiters.isEmpty {
            longWaiters.removeFirst().resume()
        } else {
            held = false
        }
    }
}
