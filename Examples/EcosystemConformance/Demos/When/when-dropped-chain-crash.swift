// demo-when-dropped-chain-crash: dropping a long unsettled When chain frees it recursively and overflows the stack.
//
// Each `then` stores, in the source promise's `observer` (Promise.swift:14, 213-228), a closure that holds the
// derived promise. Dropping the first promise of an unsettled chain frees its observer, which frees the next promise,
// whose deinit frees its observer, and so on: one nested release per link. The suite's `swift.deepChain` drops a
// chain of 100,000 links on a thread with a 1 MiB stack and expects every link freed. The chain is dropped in a child
// process (this program run with `child LENGTH`), so that the crash can be reported.
import Dispatch
import Foundation
@preconcurrency import When

/// Builds an unsettled chain of `length` `then` links and lets go of it.
func buildAndDrop(length: Int) {
    let queue = DispatchQueue(label: "demo.when.chain")
    let root = Promise<Int>(queue: queue)
    var last = root
    for _ in 0..<length { last = last.then(on: queue) { (value: Int) -> Int in value } }
    queue.sync {}  // the blocks `then` queued (each holds its promise) have run
}  // `root` and `last` are dropped here

let arguments = CommandLine.arguments
if arguments.count == 3, arguments[1] == "child", let length = Int(arguments[2]) {
    let finished = DispatchSemaphore(value: 0)
    let thread = Thread {
        buildAndDrop(length: length)
        finished.signal()
    }
    thread.stackSize = 1 << 20  // 1 MiB, as the suite's clause thread
    thread.start()
    finished.wait()
    print("chain of \(length) links built and dropped on a 1 MiB thread: freed, no crash")
    exit(0)
}

/// Runs this program as a child that builds and drops a chain of `length` links, and says how it ended.
func runChild(length: Int) -> String {
    let child = Process()
    child.executableURL = URL(fileURLWithPath: arguments[0])
    child.arguments = ["child", String(length)]
    var environment = ProcessInfo.processInfo.environment
    environment["SWIFT_BACKTRACE"] = "enable=no"
    child.environment = environment
    let output = Pipe()
    child.standardOutput = output
    child.standardError = FileHandle.nullDevice
    do { try child.run() } catch { return "could not start the child: \(error)" }
    let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    child.waitUntilExit()
    switch child.terminationReason {
    case .exit:
        return printed.trimmingCharacters(in: .whitespacesAndNewlines) + " (exit status \(child.terminationStatus))"
    case .uncaughtSignal: return "the child was killed by signal \(child.terminationStatus) (11 is SIGSEGV)"
    @unknown default: return "the child ended in an unknown way"
    }
}

print("When a0811be: an unsettled chain `p.then { $0 }.then { $0 }...` dropped on a thread with a 1 MiB stack")
print("1,000 links: \(runChild(length: 1_000))")
print("100,000 links: \(runChild(length: 100_000))")
print("expected (suite swift.deepChain, \"an unsettled chain dropped\"): every link freed, no crash")
