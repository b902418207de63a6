// Process exists in Foundation on macOS and on Linux; iOS, tvOS, watchOS and visionOS have none.
#if os(macOS) || os(Linux)
    import Dispatch
    import Foundation
    import PromiseKitStyle

    extension Process {
        /// Launches the process with a new pipe for its standard output and one for its standard error, and returns
        /// a promise that fulfils with those pipes when it exits with status 0.
        ///
        ///     let process = Process()
        ///     process.executableURL = URL(fileURLWithPath: "/bin/ls")
        ///     process.arguments = ["/bin"]
        ///     process.launch(.promise).compactMap { pipes in
        ///         String(data: pipes.out.fileHandleForReading.readDataToEndOfFile(), encoding: .utf8)
        ///     }.done { listing in ... }
        ///
        /// The promise rejects with `run()`'s error when the process cannot start, and with
        /// ``PMKError/execution(process:standardOutput:standardError:)`` when it exits with another status or is
        /// killed by a signal; that error carries what the process wrote, read to the end. On success the pipes are
        /// left unread for the caller. The exit is awaited on a global queue's thread, so a process that writes more
        /// than a pipe holds before anyone reads it (64 KiB on Linux) never exits: read such output as it comes.
        ///
        /// - Parameter _: Write `.promise`.
        /// - Returns: A promise of the standard output and standard error pipes.
        public func launch(_: PMKNamespacer) -> Promise<(out: Pipe, err: Pipe)> {
            let (out, err) = (Pipe(), Pipe())
            standardOutput = out
            standardError = err
            do {
                try run()
            } catch {
                return Promise(error: error)
            }
            // The process and its pipes cross to the waiting thread; nothing else uses them until the promise settles.
            let running = UncheckedSendable(value: (process: self, out: out, err: err))
            return Promise { seal in
                DispatchQueue.global().async {
                    let (process, out, err) = running.value
                    process.waitUntilExit()
                    guard process.terminationReason == .exit, process.terminationStatus == 0 else {
                        seal.reject(
                            PMKError.execution(
                                process: process, standardOutput: Self.text(readingToTheEndOf: out),
                                standardError: Self.text(readingToTheEndOf: err)))
                        return
                    }
                    seal.fulfill((out, err))
                }
            }
        }

        /// What the pipe's writers wrote, up to its end, as UTF-8 text (`nil` when it is not UTF-8); closes the
        /// reading end afterwards.
        private static func text(readingToTheEndOf pipe: Pipe) -> String? {
            let handle = pipe.fileHandleForReading
            defer { handle.closeFile() }
            return String(data: handle.readDataToEndOfFile(), encoding: .utf8)
        }

        /// The errors of ``launch(_:)``.
        public enum PMKError {
            /// The file at the path is not executable, or no path was given (`nil`). PromiseKit only produced it
            /// before macOS 10.13, where `run()` did not exist; nothing here produces it. The case exists so that
            /// code switching over PromiseKit's cases compiles.
            case notExecutable(String?)

            /// The process exited with a status other than 0, or was killed by a signal: the process, and its
            /// standard output and standard error as UTF-8 text (`nil` when either is not UTF-8).
            case execution(process: Process, standardOutput: String?, standardError: String?)
        }
    }

    extension Process.PMKError: LocalizedError {
        /// "File not executable: path", "No launch path specified", or "Failed executing: `command line` (status)."
        /// where the command line is the executable's path and the arguments, each quoted when it holds a space.
        public var errorDescription: String? {
            switch self {
            case .notExecutable(let path?):
                return "File not executable: \(path)"
            case .notExecutable(nil):
                return "No launch path specified"
            case .execution(let process, _, _):
                return "Failed executing: `\(process.commandLine)` (\(process.terminationStatus))."
            }
        }
    }

    // The process is only read after it exited (its status, its path and arguments); the strings are values.
    extension Process.PMKError: @unchecked Sendable {}

    extension Process {
        /// The executable's path (`$0` when there is none) and the arguments, separated by spaces; an argument with a
        /// space is quoted, an empty one is written `""`. PromiseKit makes this the process's `description`, an
        /// override that Swift only allows on Apple platforms; here it is private to the error's description.
        fileprivate var commandLine: String {
            ([executableURL?.path ?? "$0"] + (arguments ?? [])).map { word in
                if word.isEmpty { return "\"\"" }
                return word.contains(" ") ? "\"\(word)\"" : word
            }.joined(separator: " ")
        }
    }

    extension Promise where T == (out: Pipe, err: Pipe) {
        /// Prints what the process wrote, as "stdout: `text`" and "stderr: `text`" (reading both pipes to their end),
        /// or prints the error; passes the result on unchanged. For debugging.
        ///
        /// - Returns: A promise with this one's result.
        public func print() -> Promise<T> {
            tap { result in
                switch result {
                case .fulfilled(let pipes):
                    let out = String(data: pipes.out.fileHandleForReading.readDataToEndOfFile(), encoding: .utf8)
                    let err = String(data: pipes.err.fileHandleForReading.readDataToEndOfFile(), encoding: .utf8)
                    Swift.print("stdout: `\(out ?? "")`")
                    Swift.print("stderr: `\(err ?? "")`")
                case .rejected(let error):
                    Swift.print(error)
                }
            }
        }
    }
#endif
