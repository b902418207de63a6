// demo-deferred-task-map-release: a chain of `Task.map`s, filled, then dropped, is freed recursively, one nested
// release per link, and overflows a small thread stack at 20,000 links; the same chain of `andThen`s is freed. On
// Linux `map` returns `Task(future, uponCancel: cancel)` (`TaskMap.swift:59`): the new task keeps the upstream task's
// `cancel`, which holds the upstream task, in its `cancellation` property (`ExistentialTask.swift:215`, `:228`), so even
// filled, each link holds the one before it. `andThen` keeps only a `Deferred<Void>` token (`TaskAndThen.swift:48`,
// `:76-78`). Each chain is built, filled and dropped in a child process (this program run again with `--child KIND
// LINKS STACK_KIB`), so that the parent can report how the child ended. Imports only the library and Foundation/Dispatch.
import Deferred
import Foundation

import class Task.Task

/// Builds a chain of `links` `map`s (or `andThen`s) on an unfilled task, fills it, waits until the end of the chain is
/// filled and the chain's queue is idle, and drops the chain, all on a thread with a `stackKiB` KiB stack.
func child(kind: String, links: Int, stackKiB: Int) {
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        do {
            let queue = DispatchQueue(label: "demo.deferred.chain")
            let promise = Task<Int>.Promise()
            var last = Task<Int>(promise)
            for _ in 0..<links {
                if kind == "map" {
                    last = last.map(upon: queue) { $0 + 1 }
                } else {
                    last = last.andThen(upon: queue) { Task<Int>(success: $0 + 1) }
                }
            }
            promise.succeed(with: 0)
            let end = last.wait(until: .distantFuture)
            queue.sync {}
            say("child: built \(links) links, filled the first; the end of the chain is \(String(describing: end))")
            say("child: dropping the chain")
        }
        say("child: the chain was freed, the thread survived")
        done.signal()
    }
    thread.stackSize = stackKiB << 10
    thread.start()
    done.wait()
}

/// Writes a line at once, unbuffered, so that it reaches the parent even if the child then crashes.
func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

/// Runs this program again as a child and says how it ended.
func run(kind: String, links: Int, stackKiB: Int) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/proc/self/exe")
    process.arguments = ["--child", kind, "\(links)", "\(stackKiB)"]
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

let arguments = CommandLine.arguments
if let index = arguments.firstIndex(of: "--child"), index + 3 < arguments.count,
    let links = Int(arguments[index + 2]), let stackKiB = Int(arguments[index + 3])
{
    child(kind: arguments[index + 1], links: links, stackKiB: stackKiB)
} else {
    print("Deferred c82b9ef: `last = last.map(upon: queue) { $0 + 1 }` or")
    print("`last = last.andThen(upon: queue) { Task(success: $0 + 1) }` per link,")
    print("the first task's promise filled with 0")
    let runs = [
        ("map", 1_000, 1_024), ("map", 20_000, 1_024), ("map", 20_000, 512),
        ("andThen", 20_000, 1_024), ("andThen", 20_000, 512),
    ]
    for (kind, links, stackKiB) in runs {
        print("chain of \(links) \(kind)s, filled, then dropped on a thread with a \(stackKiB) KiB stack:")
        try run(kind: kind, links: links, stackKiB: stackKiB)
    }
    print("expected (suite swift.deepChain): a filled chain is freed whatever its length, one link at a time")
}
