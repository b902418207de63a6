// Hazard: a non-Sendable object captured by a block on another queue while its owner keeps using it.
import Dispatch
import FBLStyle

final class Counter {  // expected-note {{class 'Counter' does not conform to the 'Sendable' protocol}}
    var count = 0
}

func count(_ promise: Promise<Int>, on queue: DispatchQueue) {
    let counter = Counter()
    // expected-error@+1 {{capture of 'counter' with non-Sendable type 'Counter' in a '@Sendable' closure}}
    promise.then(on: queue) { value in counter.count += value }
    counter.count += 1
}
