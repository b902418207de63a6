// demo-khanlou-dropped-chain: dropping an unsettled khanlou/Promise chain of 100,000 links frees it recursively, one
// nested deinit per link, and overflows the stack of a thread with 1 MiB (the suite's swift.deepChain, "an unsettled
// chain dropped"). Each pending promise keeps its callbacks in its state; each callback holds the next link.
import Dispatch
import Foundation
import Promise

/// Builds the chain and drops it, on the current thread.
/// Writes a line to standard output at once, unbuffered, so that what is written before a crash is kept.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func buildAndDrop(length: Int) {
    var first: Promise<Int>? = Promise<Int>()
    var last = first!
    for _ in 1...length {
        let next = Promise<Int>()
        last.then(on: DispatchQueue.global(), { next.fulfill($0) }, { next.reject($0) })
        _ = last.isPending  // waits for the registration, which runs on the promise's own queue
        last = next
    }
    say("built an unsettled chain of \(length) links; dropping its first promise on a thread with a 1 MiB stack")
    first = nil
    say("dropped: the chain was freed without overflowing the stack")
}

func demo() {
    let finished = DispatchSemaphore(value: 0)
    let thread = Thread {
        buildAndDrop(length: 100)
        buildAndDrop(length: 100_000)
        finished.signal()
    }
    thread.stackSize = 1 << 20
    thread.start()
    finished.wait()
    say("Expected (swift.deepChain): the chain is freed, and this line is printed")
}

demo()
