import PromiseKitStyle

/// PromiseKitStyle's log events as the tests record and check them, rather than let the default handler print them
/// among the test results.
public enum PromiseKitLog {
    /// The name a test expects for `event`: `pendingPromiseDeallocated`, `doubleResolution`,
    /// `cauterized TestError(code: 3)` (the error as `print` shows it)...
    public static func name(of event: LogEvent) -> String {
        switch event {
        case .waitOnMainThread: return "waitOnMainThread"
        case .pendingPromiseDeallocated: return "pendingPromiseDeallocated"
        case .pendingGuaranteeDeallocated: return "pendingGuaranteeDeallocated"
        case .cauterized(is PMKDoubleResolution): return "doubleResolution"
        case .cauterized(let error): return "cauterized \(error)"
        }
    }

    /// Runs `body` with `conf.logHandler` recording each event's `name(of:)`, and returns them in the order raised:
    /// for the tests that drop a pending promise (or raise another event) on purpose. Holds the process-wide test
    /// lock (a brief hold), so that no other test's events land in the record, and restores `conf` afterwards (`body`
    /// may change it).
    public static func record(_ body: @Sendable () async throws -> Void) async rethrows -> [String] {
        try await ProcessWideTestLock.withLock(.brief) {
            let saved = conf
            defer { conf = saved }
            let events = Locked<[String]>([])
            conf.logHandler = { event in events.withLock { $0.append(name(of: event)) } }
            try await body()
            return events.withLock { $0 }
        }
    }
}
