import Dispatch
import Foundation

/// What a child process did: whether it exited within the hang guard, its exit status, and its standard output.
public struct ChildRun: Sendable {
    /// Whether the process exited within ``TestEnvironment/hangGuard``.
    public let exitedInTime: Bool
    /// The process's exit status (meaningful once it exited).
    public let status: Int32
    /// Everything it wrote to its standard output.
    public let output: String

    /// Runs `executable` with `arguments`, reads its standard output to the end, and waits for it to exit, for at most
    /// ``TestEnvironment/hangGuard``. Blocks the calling thread: call it from a test marked `.offThePool`.
    public init(_ executable: URL, arguments: [String] = []) throws {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        exitedInTime = exited.wait(timeout: .now() + TestEnvironment.hangGuard) == .success
        status = exitedInTime ? process.terminationStatus : -1
    }
}
