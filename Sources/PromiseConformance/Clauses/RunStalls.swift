import Foundation

/// What one run remembers of its stalls, so that a promise whose handlers never run gets its verdict quickly.
///
/// A stall is a top-level case that failed because a wait for something that must happen (a handler's call, a
/// settlement) ran out the case's time limit, where the adapter declares no departure. Until the run's first stall,
/// every such wait may take the whole limit (``CaseClock/caseTimeout``): a slow machine gets the time it needs.
/// After it, the run already fails; a wait then ends once the implementation has been quiet (no call of any of its
/// handlers or completions, ``ImplementationActivity``) for ``quietLimit``, and says so, instead of each
/// case of each later clause waiting out the full limit for the same missing call.
///
/// One run is one ``Conformance/run(_:clauses:timeout:stress:grace:repetitions:programs:)`` call in process; a run of
/// each clause in a child process (``Conformance/runIsolated(_:clauses:timeout:stress:grace:sourceLocation:)``, the
/// command's default) remembers a stall for the rest of that clause only.
final class RunStalls: Sendable {
    /// How long a wait goes on with the implementation quiet once the run has stalled: the generated programs' limit
    /// after a stall (``ProgramRun/stallLimitAfterAStall``). The generated clauses of a stalled run judge and confirm
    /// each program with it (``ProgramTrial/shrinkStallLimit``, the same), shrink a failure for
    /// ``ProgramTrial/stalledShrinkLimit`` at most, and say so in the report.
    static let quietLimit: TimeInterval = ProgramRun.stallLimitAfterAStall

    private let first = Locked<String?>(nil)

    /// The run's first stall, as its report names it (`2.2.2.1, fulfilled at once: timed out waiting for the
    /// handler`), or nil while there has been none.
    var firstStall: String? { first.withLock { $0 } }

    /// Records a stall, unless one was recorded already.
    func record(_ stall: String) {
        first.withLock { first in
            if first == nil { first = stall }
        }
    }
}
