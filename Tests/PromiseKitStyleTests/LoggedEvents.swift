import PromiseKitStyle
import TestSupport

/// The name a test expects for each log event: `pendingPromiseDeallocated`, `cauterized 3` (a `TestError`'s code),
/// `doubleResolution`...
func name(of event: LogEvent) -> String {
    switch event {
    case .waitOnMainThread: return "waitOnMainThread"
    case .pendingPromiseDeallocated: return "pendingPromiseDeallocated"
    case .pendingGuaranteeDeallocated: return "pendingGuaranteeDeallocated"
    case .cauterized(is PMKDoubleResolution): return "doubleResolution"
    case .cauterized(let error): return "cauterized \((error as? TestError)?.code ?? -1)"
    }
}

/// Runs `body` with `conf.logHandler` recording, and returns the events it raised, in order: for the tests that drop
/// a pending promise on purpose, whose warning is then checked rather than printed among the test results. Holds the
/// process-wide test lock, so that no other test's events land in the record, and restores `conf` afterwards.
func loggedEvents(_ body: @Sendable () async throws -> Void) async rethrows -> [String] {
    try await ProcessWideTestLock.withLock {
        let saved = conf
        defer { conf = saved }
        let events = EventLog()
        conf.logHandler = { events.add(name(of: $0)) }
        try await body()
        return events.all
    }
}
