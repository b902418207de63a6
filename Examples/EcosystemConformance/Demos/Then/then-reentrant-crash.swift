// demo-then-reentrant-crash: registering a `then` on a fulfilled freshOS/Then promise from inside a `then` handler of
// that same promise stops the program with Swift's exclusivity check ("Fatal access conflict detected"): the outer
// `then` runs its handler while it holds `inout` access to the promise's blocks, and the inner `then` asks for the
// same access again. Promises/A+ lets a handler call `then` on its own promise (2.2.6: it runs after the others).
import Foundation
import Then

/// Writes a line to standard output at once, unbuffered, so that what is written before a crash is kept.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func demo() {
    let promise = Promise(1)
    say("registering a then on a fulfilled promise, whose handler registers another then on the same promise")
    promise.then { _ in
        say("outer handler runs; registering the inner then")
        promise.then { _ in say("inner handler runs") }
        say("inner then returned")
    }
    say("outer then returned")
    say("Promises/A+ expects: both handlers run and both calls return (2.2.4, 2.2.6)")
}

demo()
