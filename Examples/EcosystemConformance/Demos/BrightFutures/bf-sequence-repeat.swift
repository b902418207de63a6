// demo-bf-sequence-repeat: `sequence()` over a list that holds the same pending future twice traps when that future
// completes (the suite's generated.combinators, `all p0 p0`). Run in a child process (this program again with
// `--child`), so that the parent can report how it ended. Imports only the library and Foundation/Dispatch.
import BrightFutures
import Foundation

enum DemoError: Error { case failed }

/// `sequence()` of `[first, second]`, then completes the pending future(s) with 1, and prints the outcome.
func child(sameTwice: Bool) {
    let a = Promise<Int, DemoError>()
    let b = Promise<Int, DemoError>()
    let inputs = sameTwice ? [a.future, a.future] : [a.future, b.future]
    let all = inputs.sequence()
    say("child: \(sameTwice ? "[f, f]" : "[f, g]").sequence() made; completing the input(s) with 1")
    a.success(1)
    if !sameTwice { b.success(2) }
    let outcome = all.forced(.now() + .seconds(2))
    say("child: sequence() completed with \(outcome.map { "\($0)" } ?? "nothing within 2 s")")
}

/// Writes a line at once, unbuffered, so that it reaches the parent even if the child then crashes.
func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

/// Runs this program again as a child and says how it ended.
func run(sameTwice: Bool) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/proc/self/exe")
    process.arguments = sameTwice ? ["--child", "same"] : ["--child", "distinct"]
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    for line in text.split(separator: "\n") { print("  \(line)") }
    // From the Swift backtracer's report: what crashed, and the crashed thread's first frames (thunks left out).
    for line in errorText.split(separator: "\n") {
        let text = String(line)
        if text.contains("Program crashed") {
            print(
                "  child stderr: \(text.replacingOccurrences(of: #" at 0x[0-9a-f]+"#, with: "", options: .regularExpression))"
            )
        }
        guard let match = text.firstMatch(of: #/^ *(\d+)\s/#), let frame = Int(match.1), frame <= 5,
            !text.contains("[thunk]")
        else { continue }
        let shown = text.replacingOccurrences(of: #"0x[0-9a-f]+ "#, with: "", options: .regularExpression)
            .replacingOccurrences(of: "[ra]", with: "")
            // Paths from the library's root on: where the checkout lies differs from machine to machine.
            .replacingOccurrences(of: #" /\S*/(Sources/BrightFutures/)"#, with: " $1", options: .regularExpression)
            .replacingOccurrences(of: #"  +"#, with: " ", options: .regularExpression)
        print("  child stderr:\(shown)")
    }
    switch process.terminationReason {
    case .exit: print("  -> the child exited with status \(process.terminationStatus)")
    case .uncaughtSignal:
        print("  -> the child was killed by signal \(process.terminationStatus) (4 is SIGILL, a trap)")
    @unknown default: print("  -> the child ended otherwise")
    }
}

if CommandLine.arguments.contains("--child") {
    child(sameTwice: CommandLine.arguments.contains("same"))
} else {
    print("two distinct pending futures:")
    try run(sameTwice: false)
    print("the same pending future twice:")
    try run(sameTwice: true)
    print("expected (an `all` of [f, f]): fulfilled with [1, 1] once f is fulfilled with 1")
}
