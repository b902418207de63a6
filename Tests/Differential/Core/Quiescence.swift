// Quiescence.swift: waiting, after each step, until nothing more can happen.
//
// A program's interpreter knows which handlers must still run and which promises must still settle, from what has
// settled so far (a `then` handler whose source fulfilled must run; a derived promise whose source settled must
// settle unless its handler returned a promise still pending). The driver waits until every such expectation holds
// and each of the program's serial queues has drained, and until a further pass finds no new event. Nothing is left
// to chance: the wait ends when the work is done, not after a time, and only a hang reaches the deadline (which the
// trace then records).

import Foundation

/// Waits for a program to go quiet.
public enum Quiescence {
    /// How long a step may take before the trace records it as hung: two minutes. Only a hang gets there; a loaded
    /// machine (the whole suite under `PROMISES_STRESS=1` beside the replay) once made a short step take over five
    /// seconds.
    public static let deadline: TimeInterval = 120

    /// Drains the log's queues (`TraceLog.drainQueues`), one at a time, until `isQuiet()` holds and two passes in a
    /// row record no new event. Returns false if the deadline passed first.
    public static func wait(log: TraceLog, isQuiet: () -> Bool) -> Bool {
        let start = Date()
        var pause: UInt32 = 20
        var quietPasses = 0
        while Date().timeIntervalSince(start) < deadline {
            let before = log.eventCount
            log.drainQueues()
            if log.eventCount != before {
                quietPasses = 0
                continue
            }
            if isQuiet() {
                quietPasses += 1
                if quietPasses == 2 { return true }
                continue
            }
            // Waiting on a thread that is none of the program's queues (a timer, a global queue): let it run.
            quietPasses = 0
            usleep(pause)
            pause = min(pause * 2, 2_000)
        }
        return false
    }
}
