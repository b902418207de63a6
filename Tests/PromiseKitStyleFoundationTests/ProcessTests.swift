#if os(macOS) || os(Linux)
    import Foundation
    import PromiseKitStyle
    import PromiseKitStyleFoundation
    import Testing

    /// A process running `/bin/sh -c script`.
    private func shell(_ script: String) -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        return process
    }

    /// Everything left in the pipe, as UTF-8 text.
    private func text(_ pipe: Pipe) -> String? {
        String(data: pipe.fileHandleForReading.readDataToEndOfFile(), encoding: .utf8)
    }

    /// The payload of `.execution`, or `nil` for another case.
    private func execution(_ error: Process.PMKError) -> (process: Process, out: String?, err: String?)? {
        guard case .execution(let process, let out, let err) = error else { return nil }
        return (process, out, err)
    }

    @Suite("Process.launch(.promise)")
    struct ProcessTests {
        @Test func exitStatusZeroFulfilsWithTheUnreadPipes() async throws {
            let process = shell("printf 'to out'; printf 'to err' >&2")
            let pipes: (out: Pipe, err: Pipe) = try await process.launch(.promise).async()
            #expect(text(pipes.out) == "to out")
            #expect(text(pipes.err) == "to err")
            #expect(process.terminationStatus == 0)
            #expect(process.standardOutput as? Pipe === pipes.out)
        }

        @Test func aNonZeroExitRejectsWithWhatTheProcessWrote() async throws {
            let process = shell("printf partial; printf 'went wrong' >&2; exit 3")
            let error = try await #require(throws: Process.PMKError.self) { try await process.launch(.promise).async() }
            let failure = try #require(execution(error))
            #expect(failure.process === process)
            #expect(failure.out == "partial")
            #expect(failure.err == "went wrong")
            #expect(process.terminationStatus == 3)
            #expect(
                error.errorDescription
                    == "Failed executing: `/bin/sh -c \"printf partial; printf 'went wrong' >&2; exit 3\"` (3).")
        }

        @Test func aSignalRejects() async throws {
            let process = shell("kill -9 $$")
            let error = try await #require(throws: Process.PMKError.self) { try await process.launch(.promise).async() }
            #expect(process.terminationReason == .uncaughtSignal)
            let failure = try #require(execution(error))
            #expect(failure.process === process)
            #expect(failure.out == "")
            #expect(failure.err == "")
        }

        @Test func anExecutableThatIsNotThereRejectsWithRunsError() async throws {
            let missing = URL(fileURLWithPath: "/nonexistent/PromiseKitStyleFoundationTests")
            let process = Process()
            process.executableURL = missing
            let error = try await #require(throws: CocoaError.self) { try await process.launch(.promise).async() }
            // The very error `run()` throws for that path.
            let direct = Process()
            direct.executableURL = missing
            let expected = try #require(throws: CocoaError.self) { try direct.run() }
            #expect(error.code == expected.code)
        }

        @Test func errorDescriptionsOfNotExecutable() {
            #expect(Process.PMKError.notExecutable("/x").errorDescription == "File not executable: /x")
            #expect(Process.PMKError.notExecutable(nil).errorDescription == "No launch path specified")
        }
    }
#endif
