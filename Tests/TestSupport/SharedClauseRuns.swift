import PromiseConformance
import PromiseKitStyle
import PromiseStyleAdapters
import Testing

/// One run of each clause over each adapter per test process, for the tests that need the same verdict: the styles'
/// own conformance tests (`BuiltInStylesConformance`) and the toys' comparison with their styles (`ToysConformance`)
/// both run every clause over the three styles, and in a whole `swift test` they now share each run instead of making
/// it twice.
///
/// The first caller's `run` makes the run, in a task that inherits the caller's test, so that what the run checks is
/// recorded there; a caller that comes while it is in flight, or after, gets the same result. PromiseKitStyle's runs
/// hold the process-wide test lock for their whole length, one at a time: shared, the run that each of its clauses
/// needs takes that lock once instead of twice.
public enum SharedClauseRuns {
    private static let runs = Locked<[String: Task<ClauseResult, Never>]>([:])

    /// The result of `clause` over the adapter named `adapter`: made by `run` if no test of this process has asked
    /// for it yet, else the one made or being made.
    public static func result(
        of clause: Clause, over adapter: String, _ run: @escaping @Sendable () async -> ClauseResult
    ) async -> ClauseResult {
        let key = adapter + "\u{0}" + clause.id
        let task = runs.withLock { runs in
            if let task = runs[key] { return task }
            let task = Task { await run() }
            runs[key] = task
            return task
        }
        return await task.value
    }
}

extension SharedClauseRuns {
    /// `clause` over BoltsStyle, checked (``ClauseCheck/run(_:_:timeout:sourceLocation:)``), once per process.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @discardableResult
    public static func bolts(_ clause: Clause) async -> ClauseResult {
        await result(of: clause, over: BoltsStyleAdapter().name) { await ClauseCheck.run(BoltsStyleAdapter(), clause) }
    }

    /// `clause` over PromiseKitStyle, checked, once per process. PromiseKit reports a second resolution and a dropped
    /// pending promise through its global `conf.logHandler`; the suite does both on purpose, so the run holds the
    /// process-wide test lock and silences the handler.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @discardableResult
    public static func promiseKit(_ clause: Clause) async -> ClauseResult {
        await result(of: clause, over: PromiseKitStyleAdapter().name) {
            await ProcessWideTestLock.withLock {
                let saved = conf.logHandler
                conf.logHandler = { _ in }
                defer { conf.logHandler = saved }
                return await ClauseCheck.run(PromiseKitStyleAdapter(), clause)
            }
        }
    }

    /// `clause` over FBLStyle, checked, once per process.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @discardableResult
    public static func fbl(_ clause: Clause) async -> ClauseResult {
        await result(of: clause, over: FBLStyleAdapter().name) { await ClauseCheck.run(FBLStyleAdapter(), clause) }
    }
}
