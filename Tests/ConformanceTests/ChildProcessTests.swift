// How the command runs a child process: a process the child started cannot keep the parent waiting once the child is
// gone, a silent child is killed with what it started, and a sanitized parent's children run without Swift's
// backtracer. Checked on small shell children, whose leftover is a `sleep` that would outlive the test.
import Foundation
import TestSupport
import Testing

@testable import PromiseConformance

@Suite(.offThePool) struct ChildProcesses {
    static let shell = URL(fileURLWithPath: "/bin/sh")

    /// The child exits at once, leaving a `sleep` of its process group that holds its standard output and error: the
    /// parent returns with the child's output, and the `sleep` is killed.
    @Test(.timeLimit(.minutes(TestEnvironment.hangGuardMinutes)))
    func aProcessTheChildLeftDoesNotKeepTheParentWaiting() async throws {
        let end = await Conformance.runChild(
            Self.shell, ["-c", "sleep 600 & echo $!"], silenceLimit: .seconds(TestEnvironment.hangGuard))
        #expect(end.exitCode == 0)
        #expect(end.signal == nil)
        #expect(!end.killedForSilence)
        let leftover = try Self.leftover(printedBy: end)
        #expect(Self.waitUntilGone(leftover), "the sleep the child left, \(leftover), still runs")
    }

    /// The child prints its leftover's id and then nothing: it is killed once silent for the limit, and its leftover
    /// with it.
    @Test(.timeLimit(.minutes(TestEnvironment.hangGuardMinutes)))
    func aSilentChildIsKilledWithWhatItStarted() async throws {
        let end = await Conformance.runChild(
            Self.shell, ["-c", "sleep 600 & echo $!; sleep 600"], silenceLimit: .seconds(1))
        #expect(end.killedForSilence)
        #expect(end.signal == SIGKILL)
        let leftover = try Self.leftover(printedBy: end)
        #expect(Self.waitUntilGone(leftover), "the sleep the child left, \(leftover), still runs")
    }

    /// The child exits at once, leaving a `sleep` that left its process group (`setsid`) and holds its pipes and
    /// Foundation's socket: the parent stops waiting for them after the silence limit, and reports the child's exit
    /// as `waitid` saw it. The test kills the `sleep` itself, which nothing of the parent reaches.
    @Test(.timeLimit(.minutes(TestEnvironment.hangGuardMinutes)))
    func aProcessThatLeftTheChildsGroupIsWaitedForTheSilenceLimitAtMost() async throws {
        let end = await Conformance.runChild(
            Self.shell, ["-c", "setsid sleep 600 & echo $!"], silenceLimit: .seconds(1))
        let leftover = try Self.leftover(printedBy: end)
        defer { kill(leftover, SIGKILL) }
        #expect(end.exitCode == 0)
        #expect(end.signal == nil)
        #expect(!end.killedForSilence)
    }

    /// The command's children inherit its environment; a sanitized parent's turn Swift's backtracer off, unless the
    /// parent's environment sets it.
    @Test func aSanitizedParentsChildrenRunWithoutTheBacktracer() {
        let parent = ["PATH": "/usr/bin"]
        #expect(ChildProcess.environment(inheriting: parent, sanitized: false) == parent)
        #expect(
            ChildProcess.environment(inheriting: parent, sanitized: true)
                == ["PATH": "/usr/bin", "SWIFT_BACKTRACE": "enable=no"])
        let chosen = ["SWIFT_BACKTRACE": "enable=yes,preset=full"]
        #expect(ChildProcess.environment(inheriting: chosen, sanitized: true) == chosen)
        #expect(ChildProcess.isSanitized == (TestEnvironment.isThreadSanitized || TestEnvironment.isAddressSanitized))
    }

    /// The process id the child printed (its `echo $!`): the `sleep` it left.
    static func leftover(printedBy end: Conformance.ChildEnd) throws -> pid_t {
        try #require(pid_t(end.output.trimmingCharacters(in: .whitespacesAndNewlines)), "\(end)")
    }

    /// Waits until process `pid` has ended (gone, or a zombie nothing has reaped yet), for ``TestEnvironment/hangGuard``
    /// at most; whether it ended.
    static func waitUntilGone(_ pid: pid_t) -> Bool {
        let limit = DispatchTime.now() + .seconds(Int(TestEnvironment.hangGuard))
        while DispatchTime.now() < limit {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
            // The state follows the command's name in parentheses: "pid (comm) S ...".
            if let close = stat.lastIndex(of: ")"), stat[close...].dropFirst(2).first == "Z" { return true }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return false
    }
}
