// demo-khanlou-race-empty: `Promises.race([])` stops the process. The work of the promise `race` returns starts with
// `guard !promises.isEmpty else { fatalError() }` (`Promise+Extras.swift:74`), and that work runs later on a global
// queue (`Promise.swift:173-181`), so the trap comes from another thread, after `race` has returned. Neither the doc
// comment of `race` (`Promise+Extras.swift:64-71`) nor the README says that the array must not be empty; the suite
// has no case for a race of nothing, so its `swift.combinator.race` cell cannot show this.
import Dispatch
import Foundation
import Promise

/// Writes a line at once, unbuffered, so that what is written before a crash is kept.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

say("khanlou/Promise 2949f58: Promises.race([Promise<Int>]())")
let raced = Promises.race([Promise<Int>]())
let never = DispatchSemaphore(value: 0)
_ = never.wait(timeout: .now() + 2)
say("2 s later the process is still running; the promise: isPending \(raced.isPending)")
say("expected: a promise that stays pending (nothing can settle it), or one rejected with an error; not a trap")
