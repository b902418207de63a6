// demo-deferred-deep-release: dropping an unfilled Deferred chain of 100,000 `map`s frees it recursively, one nested
// release per link, and overflows a 1 MiB thread stack (the suite's swift.deepChain, "an unsettled chain dropped").
// Each chain is built and dropped in a child process (this program run again with `--child N`), so that the parent
// can report how the child ended. Imports only the library and Foundation/Dispatch.
import Deferred
import Foundation

/// Builds a chain of `links` maps on an unfilled deferred and drops it, on a thread with a 1 MiB stack.
func child(links: Int) {
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        do {
            let source = Deferred<Int>()
            var last = Future(source)
            for _ in 0..<links { last = last.map(upon: DispatchQueue.global()) { $0 + 1 } }
            say("child: built \(links) links on an unfilled deferred; dropping the deferred and the chain")
        }
        say("child: the chain was freed, the thread survived")
        done.signal()
    }
    thread.stackSize = 1 << 20
    thread.start()
    done.wait()
}

/// Writes a line at once, unbuffered, so that it reaches the parent even if the child then crashes.
func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

/// Runs this program again as a child for `links` links and says how it ended.
func run(links: Int) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/proc/self/exe")
    process.arguments = ["--child", "\(links)"]
    var environment = ProcessInfo.processInfo.environment
    environment["SWIFT_BACKTRACE"] = "enable=no"
    process.environment = environment
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    for line in text.split(separator: "\n") { print("  \(line)") }
    switch process.terminationReason {
    case .exit: print("  -> the child exited with status \(process.terminationStatus)")
    case .uncaughtSignal: print("  -> the child was killed by signal \(process.terminationStatus) (11 is SIGSEGV)")
    @unknown default: print("  -> the child ended otherwise")
    }
}

if let index = CommandLine.arguments.firstIndex(of: "--child"), let links = Int(CommandLine.arguments[index + 1]) {
    child(links: links)
} else {
    for links in [1_000, 100_000] {
        print("chain of \(links) maps, dropped while unfilled, on a 1 MiB stack:")
        try run(links: links)
    }
    print("expected: a dropped unfilled chain is freed whatever its length (nothing can fill it any more)")
}
