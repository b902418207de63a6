// demo-then-deep-chain: settling a freshOS/Then chain of 20,000 links recurses once per link and overflows the stack
// of a thread with 1 MiB (the suite's swift.deepChain, "fulfilled through the chain"). Then calls a promise's blocks
// on the stack of `fulfill`, so each link's block, which fulfils the next promise, runs the next link's blocks inside
// it. Each link is a `Promise()` fulfilled from a `then` block of the link before, as the adapter chains them.
import Dispatch
import Foundation
import Then

/// Writes a line to standard output at once, unbuffered, so that what is written before a crash is kept.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Builds the chain and fulfils its first promise, on the current thread.
func buildAndSettle(length: Int) {
    let first = Promise<Int>()
    var last = first
    for _ in 1...length {
        let next = Promise<Int>()
        last.then { (value: Int) -> Void in next.fulfill(value) }
        last = next
    }
    say("built a chain of \(length) links; fulfilling its first promise on a thread with a 1 MiB stack")
    first.fulfill(1)
    say("the end of the chain: \(String(describing: last.value))")
}

func demo() {
    let finished = DispatchSemaphore(value: 0)
    let thread = Thread {
        buildAndSettle(length: 100)
        buildAndSettle(length: 20_000)
        finished.signal()
    }
    thread.stackSize = 1 << 20
    thread.start()
    finished.wait()
    say("Expected (swift.deepChain): the end of the chain is Optional(1), and this line is printed")
}

demo()
