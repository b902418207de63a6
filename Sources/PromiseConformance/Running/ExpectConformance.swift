import Foundation
import Testing

/// Runs one clause over `adapter` and records a Swift Testing issue when it fails.
///
/// Deviations the adapter declares are not issues. A clause that does not run (the adapter lacks its capability, or it
/// has no meaning in typed Swift) is recorded as a known issue, `2.2.5 not applicable to MyPromise: …`, so that the
/// run shows it ("passed … with 15 known issues") instead of counting it among the passed cases. Use it with a
/// parameterized test to get one test case per clause:
///
/// ```swift
/// @Test(arguments: Clause.all)
/// func conformance(_ clause: Clause) async {
///     await expectConformance(MyAdapter(), clause)
/// }
/// ```
///
/// - Returns: the clause's result, for further checks.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
@discardableResult
public func expectConformance<A: PromiseAdapter>(
    _ adapter: A, _ clause: Clause, timeout: Duration = Conformance.defaultTimeout,
    grace: Duration = Conformance.defaultGrace, sourceLocation: SourceLocation = #_sourceLocation
) async -> ClauseResult {
    let result = await Conformance.run(adapter, clause: clause, timeout: timeout, grace: grace)
    switch result.status {
    case .failed(let message):
        Issue.record("\(adapter.name) fails \(clause.id) (\(clause.title)): \(message)", sourceLocation: sourceLocation)
    case .notApplicable(let why):
        recordNotApplicable(clause, why, adapterName: adapter.name, sourceLocation: sourceLocation)
    case .passed, .deviation: break
    }
    return result
}

/// Records that `clause` did not run over the adapter named `adapterName`, and why, as a known issue
/// (``notApplicableIssue(_:_:adapterName:)``): Swift Testing shows it, and does not fail the test for it.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
func recordNotApplicable(_ clause: Clause, _ why: String, adapterName: String, sourceLocation: SourceLocation) {
    withKnownIssue("not applicable: the clause did not run", isIntermittent: false) {
        Issue.record(
            Comment(rawValue: notApplicableIssue(clause, why, adapterName: adapterName)), sourceLocation: sourceLocation
        )
    }
}

/// The known issue of a clause that did not run: `2.2.5 (handlers called as functions) not applicable to MyPromise: …`.
func notApplicableIssue(_ clause: Clause, _ why: String, adapterName: String) -> String {
    "\(clause.id) (\(clause.title)) not applicable to \(adapterName): \(why)"
}

/// Runs `clauses` over `adapter` and records one Swift Testing issue per failed clause, and one known issue per clause
/// that did not run (see ``expectConformance(_:_:timeout:grace:sourceLocation:)``).
///
/// ```swift
/// @Test func conformance() async {
///     await expectConformance(MyAdapter())
/// }
/// ```
///
/// - Returns: the report, for further checks.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
@discardableResult
public func expectConformance<A: PromiseAdapter>(
    _ adapter: A, clauses: [Clause] = Clause.all, timeout: Duration = Conformance.defaultTimeout,
    grace: Duration = Conformance.defaultGrace, sourceLocation: SourceLocation = #_sourceLocation
) async -> ConformanceReport {
    let report = await Conformance.run(adapter, clauses: clauses, timeout: timeout, grace: grace)
    for failure in report.failures {
        Issue.record(
            "\(adapter.name) fails \(failure.clause.id) (\(failure.clause.title)): \(failure.status.message ?? "")",
            sourceLocation: sourceLocation)
    }
    for result in report.notApplicable {
        recordNotApplicable(
            result.clause, result.status.message ?? "", adapterName: adapter.name, sourceLocation: sourceLocation)
    }
    return report
}

extension Clause: CustomTestStringConvertible {
    /// `id title`, how a parameterized test names the case.
    public var testDescription: String { description }
}

// MARK: Crash isolation

extension Conformance {
    /// Runs `clauses` over the implementation behind `adapter`, each clause in a child process of the running test,
    /// so that a clause that crashes the process is reported instead of ending the test run.
    ///
    /// The child reports each top-level case as it starts and ends. When a case kills the process (a stack overflow,
    /// a trap such as a force-unwrap or a double `resume`, any signal), that case is recorded as crashed
    /// (``CaseResult/Outcome/crashed(_:)``: the signal, what it may mean, and the telling lines of the child's error
    /// output), and a new child runs the clause's cases that had no turn yet; the clause is then
    /// ``ClauseStatus/failed(_:)`` with every failing case named (`"<case>: crashed: the process running <clause> was
    /// killed by signal 11 (SIGSEGV): ..."`), or a ``ClauseStatus/deviation(_:)`` when the adapter declares one for the
    /// whole clause. The clauses after it run and report as usual. A case that hangs is recorded as timed out by the
    /// child's watchdog, and the child goes on with the next case; a child that stops making progress altogether (no
    /// case started or ended for twice the time limit of a case, and 10 s more) ends itself, and the case it was in is
    /// recorded as timed out.
    ///
    /// Each clause is a Swift Testing exit test: call this from a Swift Testing test (not from XCTest, nor outside a
    /// test). The child process rebuilds the adapter from its `Codable` encoding and finds its type by name, so the
    /// adapter type must be `Codable` and declared at file scope (not inside a function). A clause costs a process
    /// start, some tens of milliseconds, on top of its own time, and one more for each case that crashed. `timeout` is
    /// the time limit of each case.
    public static func runIsolated<A: PromiseAdapter & Codable>(
        _ adapter: A, clauses: [Clause] = Clause.all, timeout: Duration = defaultTimeout, stress: Bool? = nil,
        grace: Duration = defaultGrace, sourceLocation: SourceLocation = #_sourceLocation
    ) async -> ConformanceReport {
        var results: [ClauseResult] = []
        for clause in clauses {
            results.append(
                await runIsolated(
                    adapter, clause: clause, timeout: timeout, stress: stress, grace: grace,
                    sourceLocation: sourceLocation))
        }
        return ConformanceReport(adapterName: adapter.name, capabilities: adapter.capabilities, results: results)
    }

    /// Runs one clause over the implementation behind `adapter` in a child process of the running test (see
    /// ``runIsolated(_:clauses:timeout:stress:grace:sourceLocation:)``).
    public static func runIsolated<A: PromiseAdapter & Codable>(
        _ adapter: A, clause: Clause, timeout: Duration = defaultTimeout, stress: Bool? = nil,
        grace: Duration = defaultGrace, sourceLocation: SourceLocation = #_sourceLocation
    ) async -> ClauseResult {
        await repeated(
            clause, capabilities: adapter.capabilities, flakyDepartures: adapter.flakyDepartures, asked: 1
        ) {
            await runIsolatedOnce(
                adapter, clause: clause, timeout: timeout, stress: stress, grace: grace, sourceLocation: sourceLocation)
        }
    }

    /// One run of ``runIsolated(_:clause:timeout:stress:grace:sourceLocation:)``.
    private static func runIsolatedOnce<A: PromiseAdapter & Codable>(
        _ adapter: A, clause: Clause, timeout: Duration, stress: Bool?, grace: Duration,
        sourceLocation: SourceLocation
    ) async -> ClauseResult {
        if let skipped = skipped(clause, capabilities: adapter.capabilities) { return skipped }
        func failed(_ message: String) -> ClauseResult {
            ClauseResult(clause: clause, status: .failed(message))
        }
        guard let typeName = _mangledTypeName(A.self) else { return failed("the adapter type \(A.self) has no name") }
        let encoded: Data
        do {
            encoded = try JSONEncoder().encode(adapter)
        } catch {
            return failed("could not encode the adapter for the child process: \(error)")
        }
        return await runInChildren(
            clause, deviations: adapter.deviations, capabilities: adapter.capabilities,
            replay: ProgramReplay(.swift, for: adapter)
        ) { skipping in
            let request = ChildRequest(
                typeName: typeName, adapter: encoded, clause: clause.id, timeout: milliseconds(timeout),
                grace: milliseconds(grace), stress: stress ?? stressFromEnvironment, skipCases: skipping)
            guard let end = await runExitTest(request, sourceLocation: sourceLocation) else {
                return ChildEnd(
                    launchError: "the child process running the clause exited with success, without a result")
            }
            var child = ChildEnd(
                output: String(decoding: end.standardOutputContent, as: UTF8.self),
                errorOutput: end.standardErrorContent)
            switch end.exitStatus {
            case .signal(let number): child.signal = number
            case .exitCode(let code): child.exitCode = code
            @unknown default: break
            }
            return child
        }
    }

    private static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
    }

    /// Runs the request's clause in an exit test: a child process that prints the outcome and exits with
    /// ``childExitCode``, or dies.
    private static func runExitTest(_ request: ChildRequest, sourceLocation: SourceLocation) async -> ExitTest.Result? {
        await #expect(
            processExitsWith: .failure, observing: [\.standardOutputContent, \.standardErrorContent],
            sourceLocation: sourceLocation
        ) { [request] in
            await request.runInThisProcess()
        }
    }
}

/// What an exit test's child needs to run one clause: the adapter's type by name and its encoding.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
struct ChildRequest: Codable, Sendable {
    let typeName: String
    let adapter: Data
    let clause: String
    let timeout: Int
    let grace: Int
    let stress: Bool
    /// The cases not to run: those an earlier child process ran.
    let skipCases: [String]

    /// In the child: runs the clause (each case reported as it starts and ends), prints its outcome and exits with
    /// ``Conformance/childExitCode``.
    func runInThisProcess() async -> Never {
        let reporter = ChildReporter()
        reporter.exitWhenStuck(limit: Conformance.silenceLimit(.milliseconds(timeout)))
        if let clause = Clause.named(self.clause) {
            let result: ClauseResult
            if let type = _typeByName(typeName) as? any (PromiseAdapter & Decodable).Type {
                result = await run(type, clause, reporter)
            } else {
                result = ClauseResult(
                    clause: clause, status: .failed("the child process found no adapter type named \(typeName)"))
            }
            reporter.report(result)
        }
        fflush(nil)
        exit(Conformance.childExitCode)
    }

    private func run<A: PromiseAdapter & Decodable>(
        _ type: A.Type, _ clause: Clause, _ reporter: ChildReporter
    ) async -> ClauseResult {
        do {
            let adapter = try JSONDecoder().decode(type, from: self.adapter)
            return await Conformance.run(
                ErasedAdapter(adapter), clause, timeout: .milliseconds(timeout), stress: stress,
                grace: .milliseconds(grace), skipping: Set(skipCases), events: reporter.report)
        } catch {
            return ClauseResult(
                clause: clause, status: .failed("the child process could not decode the adapter: \(error)"))
        }
    }
}

/// Runs one clause over `adapter` in a child process of the running test and records a Swift Testing issue when it
/// fails, crashes included (see ``Conformance/runIsolated(_:clause:timeout:stress:grace:sourceLocation:)``).
///
/// ```swift
/// @Test(arguments: Clause.all)
/// func conformance(_ clause: Clause) async {
///     await expectIsolatedConformance(MyAdapter(), clause)  // MyAdapter: PromiseAdapter, Codable
/// }
/// ```
///
/// - Returns: the clause's result, for further checks.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
@discardableResult
public func expectIsolatedConformance<A: PromiseAdapter & Codable>(
    _ adapter: A, _ clause: Clause, timeout: Duration = Conformance.defaultTimeout,
    grace: Duration = Conformance.defaultGrace, sourceLocation: SourceLocation = #_sourceLocation
) async -> ClauseResult {
    let result = await Conformance.runIsolated(
        adapter, clause: clause, timeout: timeout, grace: grace, sourceLocation: sourceLocation)
    if case .failed(let message) = result.status {
        Issue.record("\(adapter.name) fails \(clause.id) (\(clause.title)): \(message)", sourceLocation: sourceLocation)
    }
    return result
}
