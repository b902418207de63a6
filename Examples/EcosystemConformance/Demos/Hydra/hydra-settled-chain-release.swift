// demo-hydra-settled-chain-release: a chain built with Hydra's own `then` (`p.then(in: context) { $0 + 1 }`, one step
// per link), settled, then dropped, is freed recursively, one nested release per link, and overflows a small thread
// stack at 20,000 links. `then` makes each derived promise with a body that captures the promise it was called on
// (`Promise+Then.swift:78-100`), and a promise keeps its body after running it (`Promise.swift:50`, `:156-178`): even
// settled, each link holds the one before it. Each chain is built, settled and dropped in a child process (this
// program run again with `--child LINKS STACK_KIB`), so that the parent can report how the child ended. Imports only
// the library and Foundation/Dispatch.
import Foundation
import Hydra

/// Builds a chain of `links` one-step `then`s on a pending promise, resolves it, waits until the end of the chain is
/// settled and the chain's queue is idle, and drops the chain, all on a thread with a `stackKiB` KiB stack.
func child(links: Int, stackKiB: Int) {
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        do {
            let queue = DispatchQueue(label: "demo.hydra.chain")
            let context = Context.custom(queue: queue)
            let source = Promise<Int>()
            var last = source
            for _ in 0..<links { last = last.then(in: context) { $0 + 1 } }
            source.resolve(0)
            while last.isPending { queue.sync {} }
            queue.sync {}
            let end = String(describing: last.result)
            say("child: built \(links) links, resolved the first; the end of the chain is \(end)")
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
func run(links: Int, stackKiB: Int) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/proc/self/exe")
    process.arguments = ["--child", "\(links)", "\(stackKiB)"]
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

if let index = CommandLine.arguments.firstIndex(of: "--child"), index + 2 < CommandLine.arguments.count,
    let links = Int(CommandLine.arguments[index + 1]), let stackKiB = Int(CommandLine.arguments[index + 2])
{
    child(links: links, stackKiB: stackKiB)
} else {
    print("Hydra 2.0.6: `last = last.then(in: context) { $0 + 1 }` per link, the first promise resolved with 0")
    for (links, stackKiB) in [(1_000, 1_024), (20_000, 1_024), (20_000, 512)] {
        print("chain of \(links) links, settled, then dropped on a thread with a \(stackKiB) KiB stack:")
        try run(links: links, stackKiB: stackKiB)
    }
    print("expected (suite swift.deepChain): a settled chain is freed whatever its length, one link at a time")
}
