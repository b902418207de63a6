// demo-replay-lock: a replayed producer that already failed hands its failure to a new subscriber while it holds
// its own lock; a subscriber that starts the same producer from that failure handler re-enters the lock.
import Foundation
@preconcurrency import ReactiveSwift

struct Boom: Error, CustomStringConvertible {
    var description: String { "Boom" }
}

/// Prints a line at once (unbuffered), so that it is out before a trap.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

// A one-shot value as a ReactiveSwift user shares one: a pipe, its first event, replayed to later subscribers.
let (signal, input) = Signal<Int, Boom>.pipe()
let shared = SignalProducer(signal).take(first: 1).replayLazily(upTo: 1)
shared.start()
input.send(error: Boom())
say("the shared producer has failed with Boom")
say("Promises/A+ expects: a handler registered inside a handler of a rejected promise gets the reason too (2.2.3.1),")
say("after the outer one (2.2.6.2); nothing traps or deadlocks")
say("a late subscriber starts it; its failure handler starts the same producer again")
shared.startWithFailed { error in
    say("outer failure handler: got \(error); starting the producer again from here")
    shared.startWithFailed { error in say("inner failure handler: got \(error)") }
    say("outer failure handler: the inner start returned")
}
say("the outer start returned")
