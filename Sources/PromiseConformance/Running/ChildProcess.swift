import Dispatch
import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

// How the command runs one child process: its environment, its two pipes read to their ends on threads of their own,
// a limit on its silence, and what is left of it killed once it has exited.

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension Conformance {
    /// Runs `executable` with `arguments` to the end, on a thread of its own, and returns its standard output, its
    /// standard error and how it ended. The child is killed (`SIGKILL`) once it has printed nothing for
    /// `silenceLimit`: it reports each case as it starts and ends, and has a watchdog of its own; this one only
    /// guards against a child that cannot even run that.
    ///
    /// Once the child has exited, whatever is left of its process group is killed too, and the pipes are read only
    /// for as long as `silenceLimit` after that: a process the child started can hold the pipes open after the child
    /// is gone, and must not keep the parent waiting (see ``ChildProcess``).
    static func runChild(_ executable: URL, _ arguments: [String], silenceLimit: Duration) async -> ChildEnd {
        await withCheckedContinuation { continuation in
            let thread = Thread {
                continuation.resume(returning: ChildProcess.run(executable, arguments, silenceLimit: silenceLimit))
            }
            thread.name = "PromiseConformance child"
            thread.start()
        }
    }

    /// How a child process ended.
    struct ChildEnd: Sendable {
        var output = ""
        var errorOutput: [UInt8] = []
        var signal: Int32?
        var exitCode: Int32?
        var launchError: String?
        /// Whether the parent killed it for printing nothing for too long.
        var killedForSilence = false
    }
}

/// One child process of the command, from its start to the end of its output.
///
/// Two things can keep a parent waiting on a child that is gone, and both are handled here:
///
/// - **A process the child started.** A crashing Swift program on Linux starts the runtime's backtracer
///   (`swift-backtrace`), which writes the crash report to the same standard error. Foundation's `Process` starts each
///   child in a process group of its own, and the backtracer stays in that group. Reading a pipe to its end waits for
///   every process that holds it (and on Linux, Foundation learns of the child's exit the same way, see
///   ``waitForExit(_:)``); so once the child has exited, the rest of its group is killed (``killLeftovers(_:)``), and
///   the parent waits for the pipes' ends and for Foundation for ``Conformance/runChild(_:_:silenceLimit:)``'s silence
///   limit at most after that, in case a process left the group and still holds them.
/// - **The backtracer under a sanitizer.** In a process built with the address sanitizer the backtracer never
///   finishes: the crashed child waits for it until its silence limit, and the crash would be reported as a hang. In a
///   process built with the thread sanitizer the sanitizer ends the child (exit status 66) from the crash handler
///   before the signal, and the crash would be reported as an exit. So a child of a sanitized process runs without the
///   backtracer (``environment(inheriting:sanitized:)``): it dies of its signal, and its error output still holds the
///   runtime's own message (`Fatal error: ...`) and the sanitizer's report.
enum ChildProcess {
    /// The environment of a child process: the parent's, and, in a process built with a sanitizer (`sanitized`),
    /// `SWIFT_BACKTRACE=enable=no` unless the parent's environment sets `SWIFT_BACKTRACE` itself.
    static func environment(inheriting parent: [String: String], sanitized: Bool = isSanitized) -> [String: String] {
        var environment = parent
        if sanitized, environment["SWIFT_BACKTRACE"] == nil { environment["SWIFT_BACKTRACE"] = "enable=no" }
        return environment
    }

    /// Whether this process was built with the address or the thread sanitizer (`swift build --sanitize=address` or
    /// `thread`): whether it defines the sanitizer runtime's entry point.
    static let isSanitized: Bool = {
        guard let process = dlopen(nil, RTLD_NOW) else { return false }
        return dlsym(process, "__asan_init") != nil || dlsym(process, "__tsan_init") != nil
    }()

    /// Runs the child, with ``environment(inheriting:sanitized:)`` of this process's environment, to the end of its
    /// output (see ``Conformance/runChild(_:_:silenceLimit:)``).
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    static func run(_ executable: URL, _ arguments: [String], silenceLimit: Duration) -> Conformance.ChildEnd {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment(inheriting: ProcessInfo.processInfo.environment)
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        let terminated = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in terminated.signal() }
        do {
            try process.run()
        } catch {
            return Conformance.ChildEnd(launchError: "could not start \(executable.path): \(error)")
        }
        let child = Running(pid: process.processIdentifier)
        let outputReader = PipeReader(output.fileHandleForReading, name: "PromiseConformance child output")
        let errorReader = PipeReader(errors.fileHandleForReading, name: "PromiseConformance child error output")
        let exited = Locked(false)
        let killed = Locked(false)
        let watchdog = Thread {
            while !exited.withLock({ $0 }) {
                Thread.sleep(forTimeInterval: 0.2)
                let silent = DispatchTime.now() >= outputReader.lastRead + silenceLimit.dispatchInterval
                if silent, !exited.withLock({ $0 }) {
                    killed.withLock { $0 = true }
                    killAll(child)
                    return
                }
            }
        }
        watchdog.name = "PromiseConformance child limit"
        watchdog.start()
        let exit = waitForExit(child)
        exited.withLock { $0 = true }
        killLeftovers(child)  // a process it started that holds the pipes
        let readingEnds = DispatchTime.now() + silenceLimit.dispatchInterval
        var end = Conformance.ChildEnd(
            output: String(decoding: outputReader.bytes(waitingUntil: readingEnds), as: UTF8.self),
            errorOutput: errorReader.bytes(waitingUntil: readingEnds),
            killedForSilence: killed.withLock { $0 })
        if let exit, terminated.wait(timeout: readingEnds) == .timedOut {
            (end.signal, end.exitCode) = (exit.signal, exit.exitCode)  // Foundation still waits: see waitForExit
        } else {
            process.waitUntilExit()  // Foundation has reaped it, or is about to
            if process.terminationReason == .uncaughtSignal {
                end.signal = process.terminationStatus
            } else {
                end.exitCode = process.terminationStatus
            }
        }
        return end
    }

    /// A started child: its process id, and whether it leads a process group of its own (as Foundation's `Process`
    /// starts it on Linux), looked up once it started, while it certainly runs.
    struct Running {
        let pid: pid_t
        let leadsItsGroup: Bool

        init(pid: pid_t) {
            self.pid = pid
            leadsItsGroup = getpgid(pid) == pid
        }
    }

    /// Returns once the child has exited, without reaping it, with how it ended; nil when Foundation's `Process`
    /// reaped it first (it then knows how it ended).
    ///
    /// `Process` reaps it, and on Linux learns of the exit only when every process holding the child's end of a socket
    /// pair has closed it: a process the child started holds it too, even one that left the child's process group
    /// (which ``killLeftovers(_:)`` does not reach), and then `Process` waits as long as that process runs. `waitid`
    /// with `WNOWAIT` sees the exit itself, so the parent waits for `Process` only for the silence limit, and reports
    /// what `waitid` saw if `Process` is still waiting then.
    static func waitForExit(_ child: Running) -> (signal: Int32?, exitCode: Int32?)? {
        var info = siginfo_t()
        while waitid(P_PID, id_t(child.pid), &info, WEXITED | WNOWAIT) != 0 {
            guard errno == EINTR else { return nil }  // ECHILD: reaped already
        }
        #if canImport(Darwin)
            let status = info.si_status
        #else
            let status = info._sifields._sigchld.si_status
        #endif
        return Int(info.si_code) == Int(CLD_EXITED) ? (nil, status) : (status, nil)
    }

    /// Kills the running child (`SIGKILL`: a stopped or wedged process ignores a polite request), and with it every
    /// process of its group (``killLeftovers(_:)``).
    static func killAll(_ child: Running) {
        _ = kill(child.pid, SIGKILL)
        killLeftovers(child)
    }

    /// Kills every process of the child's group, when it leads one of its own: what it started, the backtracer among
    /// them, unless that left the group. Once the child has exited, this is what is left of it.
    static func killLeftovers(_ child: Running) {
        if child.leadsItsGroup { _ = kill(-child.pid, SIGKILL) }
    }
}

/// One end of a pipe, read to its end on a thread of its own, so that a parent can stop waiting for it.
final class PipeReader: Sendable {
    private let state = Locked(State())
    private let ended = DispatchSemaphore(value: 0)

    private struct State {
        /// Bytes, not `Data`: a reader can still be alive when the process exits (its thread between the end of the
        /// pipe and its own end), and the leak checker cannot see the storage of a `Data` in an enum's payload, so it
        /// would report that storage as leaked.
        var bytes: [UInt8] = []
        var lastRead = DispatchTime.now()
    }

    /// Starts reading `handle` on a new thread named `name`.
    init(_ handle: FileHandle, name: String) {
        let thread = Thread { [self] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                state.withLock {
                    $0.bytes += chunk
                    $0.lastRead = .now()
                }
            }
            ended.signal()
        }
        thread.name = name
        thread.start()
    }

    /// When the pipe last gave something, or when reading began.
    var lastRead: DispatchTime { state.withLock { $0.lastRead } }

    /// What the pipe gave, once it ended or at `deadline`, whichever comes first.
    func bytes(waitingUntil deadline: DispatchTime) -> [UInt8] {
        if ended.wait(timeout: deadline) == .success { ended.signal() }  // ended: and stays so for the next look
        return state.withLock { $0.bytes }
    }
}
