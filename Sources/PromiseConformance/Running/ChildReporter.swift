import Dispatch
import Foundation

// The child's side: the case lines and the result line, printed as they happen, and the watchdog that ends a child
// that stopped making progress (see Isolation.swift).

/// The child's side: prints each case event and the result as a line of its own, flushed at once (so that a crash
/// loses none), and, as a last resort, ends the process when it stops making progress.
final class ChildReporter: Sendable {
    private struct State {
        var running: String?
        var lastEvent = DispatchTime.now()
    }

    private let state = Locked(State())

    /// Prints `event`'s line.
    func report(_ event: CaseEvent) {
        state.withLock { state in
            switch event {
            case .started(let name): state.running = name
            case .ended: state.running = nil
            case .progressed: break
            }
            state.lastEvent = .now()
            Self.printLine(CaseEventRecord(event).line)
        }
    }

    /// Prints the result line.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    func report(_ result: ClauseResult) {
        state.withLock { _ in Self.printLine(ResultRecord(result).line) }
    }

    private static func printLine(_ line: String) {
        print(line)
        fflush(nil)  // every stream: the line must be out before a crash can lose it
    }

    /// Ends the process, with ``Conformance/childHungExitCode``, once no case has started or ended for `limit`: what
    /// stops a child that hangs where the clause's own watchdog cannot act (its threads all blocked). A case that was
    /// running is first reported as timed out.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    func exitWhenStuck(limit: Duration) {
        let thread = Thread { [self] in
            while true {
                Thread.sleep(forTimeInterval: 0.2)
                state.withLock { state in
                    guard DispatchTime.now() >= state.lastEvent + limit.dispatchInterval else { return }
                    if let running = state.running {
                        let message =
                            "timed out: the process running the clause made no progress for \(limit) and ended "
                            + "itself (every thread it could run on was blocked, or it could not exit)"
                        Self.printLine(
                            CaseEventRecord(.ended(CaseResult(name: running, outcome: .timedOut(message)))).line)
                    }
                    _exit(Conformance.childHungExitCode)
                }
            }
        }
        thread.name = "PromiseConformance child watchdog"
        thread.start()
    }
}
