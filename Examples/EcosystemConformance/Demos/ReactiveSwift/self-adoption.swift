// demo-self-adoption: a replayed producer whose flatMap returns that same producer waits for itself forever,
// where Promises/A+ 2.3.1 rejects a promise resolved with itself.
import Foundation
@preconcurrency import ReactiveSwift

/// Holds the derived producer so that the flatMap closure, written before it exists, can return it.
final class Slot: @unchecked Sendable {
    var producer: SignalProducer<Int, Error>?
}

/// Every event the derived producer sends to a subscriber, under a lock.
final class Events: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [String] = []
    func add(_ event: String) { lock.withLock { events.append(event) } }
    var all: [String] { lock.withLock { events } }
}

let (signal, input) = Signal<Int, Error>.pipe()
let source = SignalProducer(signal).take(first: 1).replayLazily(upTo: 1)
source.start()

// derived = source.then { _ in derived }: the handler returns the very producer it belongs to.
let slot = Slot()
let derived = source.flatMap(.concat) { _ in slot.producer! }.take(first: 1).replayLazily(upTo: 1)
slot.producer = derived
derived.start()
let events = Events()
derived.start { event in events.add("\(event)") }

input.send(value: 1)
input.sendCompleted()
print("source fulfilled with 1; no scheduler is involved, so everything that will happen has happened")
print("events the derived producer sent: \(events.all)")
Thread.sleep(forTimeInterval: 1)
print("events after 1 more second: \(events.all)")
print("Promises/A+ 2.3.1 expects: the derived promise is rejected (a TypeError), since it was resolved with itself")
print(
    "ReactiveSwift: the derived producer \(events.all.isEmpty ? "never terminates: it waits for its own first event" : "terminated")"
)
