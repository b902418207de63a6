/// One requirement the suite checks: a Promises/A+ 1.1 clause (id = the spec's number, e.g. `2.2.4`) or one of the
/// suite's own Swift clauses (id `swift.*`).
///
/// Each clause runs several concrete cases, in the manner of the JavaScript suite (already settled, settled later,
/// settled from another thread, ...). ``all`` lists every clause in the order of the spec: every numbered leaf
/// requirement of Promises/A+ 1.1 section 2 (34 of them, ``promisesAPlusIds``) has its own clause. The few that have
/// no meaning in typed Swift (``notMeaningful``) are listed, with the reason, but not run: they are reported
/// ``ClauseStatus/notApplicable(_:)`` for every implementation.
public struct Clause: Sendable, Hashable, Identifiable, CustomStringConvertible {
    /// The spec's number (`2.3.3.3.1`) or the suite's own id (`swift.queue`).
    public let id: String
    /// A short title for the matrix, e.g. "onFulfilled called at most once".
    public let title: String
    /// The requirement in one line, as the spec states it (adapted to typed Swift).
    public let statement: String
    /// The capabilities an adapter must declare for the clause to apply.
    public let requires: Capabilities
    /// The names of the concrete cases the clause runs (none for a clause that is ``notMeaningful``).
    public let cases: [String]
    /// Why the requirement has no meaning in typed Swift, for the A+ requirements the suite lists without running
    /// (2.2.5 "called as functions", 2.3.3.2 "retrieving `then` throws", 2.3.3.4 "`then` is not a function"); nil for
    /// every clause the suite runs.
    public let notMeaningful: String?
    /// Whether the clause checks that something does *not* happen (a second or an early call, a second outcome, a
    /// promise that must stay pending), and so waits the grace period (``Conformance/defaultGrace``) after what it
    /// expected. False for a clause that only waits for what must happen (a value or a reason passed on, a handler
    /// that does not run inside `then`, a settled promise adopted, a queue, a chain's end, an object freed), and for
    /// one that is ``notMeaningful``. Each clause declares it; ``ClauseResult/graceWaits`` counts the waits of one run,
    /// and the suite's tests check that the two agree.
    public let waitsForAbsence: Bool

    /// For a generated clause (`generated.*`), the programs it runs (``with(_:)`` changes them); nil for every other
    /// clause.
    public internal(set) var programs: GeneratedPrograms?
    /// The family of a generated clause.
    var family: ProgramGenerator.Family?
    /// The clause applies only when the adapter declares at least one of these; empty for no such condition.
    var requiresOneOf: Capabilities = []
    let body: @Sendable (ClauseContext) throws -> Void

    init(
        _ id: String, _ title: String, _ statement: String, requires: Capabilities = [], waitsForAbsence: Bool,
        cases: [String], body: @escaping @Sendable (ClauseContext) throws -> Void
    ) {
        self.id = id
        self.title = title
        self.statement = statement
        self.requires = requires
        self.cases = cases
        self.notMeaningful = nil
        self.waitsForAbsence = waitsForAbsence
        self.body = body
    }

    /// An A+ requirement that has no meaning in typed Swift: listed with `reason`, never run.
    init(_ id: String, _ title: String, _ statement: String, notMeaningful reason: String) {
        self.id = id
        self.title = title
        self.statement = statement
        self.requires = []
        self.cases = []
        self.notMeaningful = reason
        self.waitsForAbsence = false
        self.body = { _ in }
    }

    /// The numbers of the 34 leaf requirements of Promises/A+ 1.1 section 2, in the spec's order; ``all`` has one
    /// clause for each (a parent such as 2.1.2 or 2.3.3.3 has no clause of its own: its leaves do).
    public static let promisesAPlusIds: [String] = [
        "2.1.1.1", "2.1.2.1", "2.1.2.2", "2.1.3.1", "2.1.3.2",
        "2.2.1.1", "2.2.1.2", "2.2.2.1", "2.2.2.2", "2.2.2.3", "2.2.3.1", "2.2.3.2", "2.2.3.3", "2.2.4", "2.2.5",
        "2.2.6.1", "2.2.6.2", "2.2.7.1", "2.2.7.2", "2.2.7.3", "2.2.7.4",
        "2.3.1", "2.3.2.1", "2.3.2.2", "2.3.2.3", "2.3.3.1", "2.3.3.2", "2.3.3.3.1", "2.3.3.3.2", "2.3.3.3.3",
        "2.3.3.3.4.1", "2.3.3.3.4.2", "2.3.3.4", "2.3.4",
    ]

    /// `id title`.
    public var description: String { "\(id) \(title)" }

    /// Clauses are identified by their id.
    public static func == (lhs: Clause, rhs: Clause) -> Bool { lhs.id == rhs.id }

    /// Hashes the id.
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }

    /// Every clause, Promises/A+ first in the spec's order, then the suite's own `swift.*` clauses.
    public static let all: [Clause] =
        statesClauses + thenClauses + resolutionClauses + thenableClauses + swiftClauses + deepChainClauses
        + combinatorClauses
        + cancellationClauses + generatedClauses(.standard)

    /// Whether the clause runs for an adapter that declares `capabilities`: it is meaningful in typed Swift, and the
    /// adapter declares every capability it needs (for `generated.combinators`, one of `all`, `race` and `any` at
    /// least). A clause that does not apply is reported ``ClauseStatus/notApplicable(_:)``.
    public func applies(to capabilities: Capabilities) -> Bool {
        notMeaningful == nil && capabilities.isSuperset(of: requires)
            && (requiresOneOf.isEmpty || !requiresOneOf.isDisjoint(with: capabilities))
    }

    /// The clause, with `programs` if it is a generated clause (`generated.*`); itself otherwise.
    public func with(_ programs: GeneratedPrograms) -> Clause {
        family.map { Clause.generated($0, programs) } ?? self
    }

    /// The clause with this id, if any.
    public static func named(_ id: String) -> Clause? {
        all.first { $0.id == id }
    }

    /// The clauses whose id starts with `prefix` (e.g. `2.2` or `swift.`), in the order of ``all``.
    public static func matching(prefix: String) -> [Clause] {
        all.filter { $0.id.hasPrefix(prefix) }
    }
}
