/// How one of a clause's top-level cases (``Clause/cases``) ended.
///
/// Each case runs whatever the cases before it did: a case that fails, crashes the process running it or hangs is
/// recorded here, and the clause goes on with its next case (in a new child process after a crash, on a new thread
/// after a hang). The clause's ``ClauseStatus`` sums its cases up.
public struct CaseResult: Sendable, Hashable, CustomStringConvertible {
    /// How a case ended.
    public enum Outcome: Sendable, Hashable {
        /// Every check of the case held.
        case passed
        /// A check of the case did not hold: what was expected and what was seen. A wait for something that must
        /// happen that ran out of the case's time ("timed out waiting for ...") is a failed check too.
        case failed(String)
        /// The process running the case died during it (a signal, or an exit without a result): which signal, what it
        /// may mean, and the end of the process's error output. Only an isolated run (a child process per clause)
        /// survives to say so.
        case crashed(String)
        /// The case did not return within its time limit and the watchdog's margin: the implementation hung inside a
        /// call (a deadlock, a blocked handler), and the suite left the case's thread behind.
        case timedOut(String)
        /// The case showed a departure its adapter declares (``PromiseAdapter/deviations``), and nothing else: a
        /// generated program that broke a rule the adapter lists, and no other. The message says what it broke.
        case deviated(String)
    }

    /// The case's name, one of its clause's ``Clause/cases``.
    public let name: String
    /// How it ended.
    public let outcome: Outcome

    /// Creates a case result.
    public init(name: String, outcome: Outcome) {
        self.name = name
        self.outcome = outcome
    }

    /// What went wrong, without the case's name; nil when the case passed.
    public var message: String? {
        switch outcome {
        case .passed: nil
        case .failed(let message), .crashed(let message), .timedOut(let message), .deviated(let message): message
        }
    }

    /// Whether the case passed.
    public var passed: Bool { outcome == .passed }

    /// `name: passed`, or `name: message`.
    public var description: String { "\(name): \(message ?? "passed")" }
}
