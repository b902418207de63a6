import Dispatch
import Foundation

/// Runs clauses over a promise implementation.
///
/// Each clause runs on a fresh thread with a known stack size (``clauseStackSize``), so a stack overflow shows
/// instead of hiding in a large main-thread stack, and waits with semaphores bounded by the clause's timeout. When a
/// clause does not finish in time (the implementation hangs, or a handler blocks) it fails with "timed out", its
/// thread is abandoned, and the run goes on with the next clause. Nothing in the suite needs `DispatchQueue.main` to
/// be served, nor the Swift concurrency pool to have a free thread.
///
/// Set the environment variable `PROMISES_STRESS=1` to run the race clauses with many more iterations.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
public enum Conformance {
    /// The stack size of the thread each clause runs on: 1 MiB.
    public static let clauseStackSize = 1 << 20

    /// The default time limit of one clause.
    public static let defaultTimeout: Duration = .seconds(30)

    /// Runs `clauses` over the implementation behind `adapter`, one after the other.
    ///
    /// - Parameters:
    ///   - clauses: the clauses to run, ``Clause/all`` by default.
    ///   - timeout: the time limit of each clause.
    ///   - stress: run the race clauses with many more iterations; defaults to `PROMISES_STRESS=1` in the environment.
    public static func run<A: PromiseAdapter>(
        _ adapter: A, clauses: [Clause] = Clause.all, timeout: Duration = defaultTimeout, stress: Bool? = nil
    ) async -> ConformanceReport {
        let erased = ErasedAdapter(adapter)
        var results: [ClauseResult] = []
        for clause in clauses {
            results.append(await run(erased, clause, timeout: timeout, stress: stress ?? stressFromEnvironment))
        }
        return ConformanceReport(adapterName: adapter.name, capabilities: adapter.capabilities, results: results)
    }

    /// Runs one clause over the implementation behind `adapter`.
    public static func run<A: PromiseAdapter>(
        _ adapter: A, clause: Clause, timeout: Duration = defaultTimeout, stress: Bool? = nil
    ) async -> ClauseResult {
        await run(ErasedAdapter(adapter), clause, timeout: timeout, stress: stress ?? stressFromEnvironment)
    }

    static var stressFromEnvironment: Bool {
        ProcessInfo.processInfo.environment["PROMISES_STRESS"] == "1"
    }

    static func run(_ adapter: ErasedAdapter, _ clause: Clause, timeout: Duration, stress: Bool) async -> ClauseResult {
        let missing = clause.requires.subtracting(adapter.capabilities)
        guard missing.isEmpty else {
            return ClauseResult(clause: clause, status: .notApplicable("needs capability \(missing)"))
        }
        let clock = ContinuousClock()
        let start = clock.now
        let failure = await execute(clause, adapter, timeout: timeout, stress: stress)
        let status: ClauseStatus
        switch (adapter.deviations[clause.id], failure) {
        case (nil, nil): status = .passed
        case (nil, let message?): status = .failed(message)
        case (let reason?, nil): status = .failed("declared deviation not observed (declared: \(reason))")
        case (let reason?, let observed?): status = .deviation("\(reason) (observed: \(observed))")
        }
        return ClauseResult(clause: clause, status: status, duration: clock.now - start)
    }

    /// Runs the clause body on its own thread; returns nil when it passed, else the failure message.
    private static func execute(
        _ clause: Clause, _ adapter: ErasedAdapter, timeout: Duration, stress: Bool
    ) async -> String? {
        let nanoseconds = timeout.components.seconds * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000
        let deadline = DispatchTime.now() + .nanoseconds(Int(nanoseconds))
        return await withCheckedContinuation { continuation in
            let once = Once()
            let thread = Thread {
                let context = ClauseContext(adapter: adapter, deadline: deadline, stress: stress)
                var message: String?
                do {
                    try clause.body(context)
                } catch let failure as ClauseFailure {
                    message = failure.message
                } catch {
                    message = "unexpected error \(error)"
                }
                if once.claim() { continuation.resume(returning: message) }
            }
            thread.name = "PromiseConformance \(clause.id)"
            thread.stackSize = clauseStackSize
            thread.start()
            // The watchdog: a clause stuck outside the suite's own waits (in the implementation) still ends.
            DispatchQueue.global().asyncAfter(deadline: deadline + .seconds(2)) {
                if once.claim() {
                    continuation.resume(returning: "timed out after \(timeout) (the clause did not return)")
                }
            }
        }
    }
}
