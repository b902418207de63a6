// HandlerLedger.swift: what a running program's handlers have done, and what the driver expects them to do.

import Foundation

/// Which handlers of a running program have run, and which returned a pending promise of the program (a derived
/// promise then settles only once that one has). Handlers report from any thread; the driver reads. The driver also
/// keeps here its expectations: what must hold once a step's work is done (Quiescence waits for them).
public final class HandlerLedger: @unchecked Sendable {
    private let lock = NSLock()
    /// The program's trace, whose driver is the thread that made the ledger.
    public let log = TraceLog()
    private var ran: Set<Int> = []
    private var returned: [Int: Int] = [:]

    /// A ledger, and its trace log, whose driver is the calling thread.
    public init() {}

    /// Records that the handler of step `step` ran with `input`: the event `h<step>(<input>)`.
    public func ran(_ step: Int, _ input: String) {
        lock.lock()
        ran.insert(step)
        lock.unlock()
        log.record("h\(step)(\(input))")
    }

    /// Whether the handler of step `step` has run.
    public func hasRun(_ step: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return ran.contains(step)
    }

    /// Records that the handler of step `step` returned the program's node `node`, still pending.
    public func returning(_ step: Int, _ node: Int) {
        lock.lock()
        returned[step] = node
        lock.unlock()
    }

    /// The pending node the handler of step `step` returned, if it returned one.
    public func returnedNode(_ step: Int) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        return returned[step]
    }

    // The expectations are the driver's alone: it adds them while performing a step and checks them while it waits.
    private var expectations: [() -> Bool] = []

    /// Expects the handler of step `step` to have run whenever `due()` holds (its source settled the way it handles).
    public func expectRun(_ step: Int, when due: @escaping () -> Bool) {
        expectations.append { [unowned self] in !due() || hasRun(step) }
    }

    /// Expects `holds()` whenever `due()` holds: a node due to settle has settled.
    public func expect(_ holds: @escaping () -> Bool, when due: @escaping () -> Bool) {
        expectations.append { !due() || holds() }
    }

    /// Whether every expectation holds: the current step's work is done.
    public var expectationsHold: Bool { expectations.allSatisfy { $0() } }

    /// Forgets the expectations, and the nodes their closures hold.
    public func forgetExpectations() { expectations = [] }
}
