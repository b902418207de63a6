// demo-error-boxes: with `Swift.Error` as a producer's error type (what `attemptMap` makes), every signal that forwards
// a failure puts the error in one more `any Error` box that holds the old one, so the end of a chain of replayed
// producers gets its reason nested once per link and more. Reading it works, but a cast of it (`is`, `as?`, a typed
// `catch`) walks the boxes recursively in the Swift runtime, and on a 512 KiB thread it crashes after a few thousand
// links. A concrete error type is not boxed again. A signal keeps its termination as `case failed(Swift.Error)`
// (`Sources/Signal.swift:416`, stored at `:426`, read back with `as! Error` at `:439`): when the signal's own `Error`
// is `Swift.Error`, storing it wraps the existential in a new one. Each chain is built and its reason cast in a child
// process (this program run again with `--child LINKS`), so that the parent can report how the child ended.
import Foundation
@preconcurrency import ReactiveSwift

struct Failure: Error {}

/// How many `any Error` boxes hold another one on the way to the error's value, counted without a cast: each step
/// opens the box (the generic call opens the existential), and takes out what it holds when that is an `any Error`.
func boxes(_ error: any Error) -> Int {
    func unboxed<Boxed: Error>(_ error: Boxed) -> (any Error)? {
        Boxed.self == (any Error).self ? unsafeBitCast(error, to: (any Error).self) : nil
    }
    var count = 0
    var current = error
    while let inner = unboxed(current) {
        count += 1
        current = inner
    }
    return count
}

/// The reason at the end of `links` replayed producers (`replayLazily(upTo: 1)`, started at once, as a one-shot value
/// is shared), each the previous one's, after the first is failed with `Failure()`.
func reason<E: Error>(links: Int, as type: E.Type, failure: E) -> E {
    let (signal, input) = Signal<Int, E>.pipe()
    var last = SignalProducer(signal)
    for _ in 0..<links {
        last = last.replayLazily(upTo: 1)
        last.start()
    }
    input.send(error: failure)
    var seen: E?
    last.startWithFailed { seen = $0 }  // replayed at once: the chain has terminated
    return seen!
}

/// Writes a line at once, unbuffered, so that it reaches the parent even if the child then crashes.
func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

/// Runs `body` on a thread with a stack of `kib` KiB and waits for it.
func onThread(stackKiB kib: Int, _ body: @escaping @Sendable () -> Void) {
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        body()
        done.signal()
    }
    thread.stackSize = kib << 10
    thread.start()
    done.wait()
}

/// Builds a chain of `links` links with `Swift.Error` as its error type on a 64 MiB thread (a failure reaches the
/// links synchronously, one nested call per link, ReactiveSwift's documented default), and casts the reason on a
/// 512 KiB thread.
func child(links: Int) {
    let box = Box()
    onThread(stackKiB: 64 << 10) { box.error = reason(links: links, as: Error.self, failure: Failure()) }
    let error = box.error!
    say("child: \(links) links; the reason is in \(boxes(error)) nested boxes; casting it on a 512 KiB thread")
    onThread(stackKiB: 512) { say("child: the reason is a Failure: \(error is Failure)") }
}

/// The reason a chain ended with, from the thread that built it.
final class Box: @unchecked Sendable {
    var error: (any Error)?
}

/// Runs this program again as a child and says how it ended.
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

let arguments = CommandLine.arguments
if arguments.count == 3, arguments[1] == "--child", let links = Int(arguments[2]) {
    child(links: links)
} else {
    print("1. boxes around the reason at the end of a chain of replayed producers")
    for links in [1, 10, 100, 1_000] {
        let untyped = boxes(reason(links: links, as: Error.self, failure: Failure()))
        let typed = boxes(reason(links: links, as: Failure.self, failure: Failure()))
        print("   \(links) links: error type Swift.Error: \(untyped) boxes; error type Failure: \(typed) boxes")
    }
    print("2. a cast of the reason, on a 512 KiB thread")
    for links in [100, 2_000] { try run(links: links) }
}
