// Hazard: a non-Sendable object captured by a continuation on another thread while its owner keeps using it.
import BoltsStyle

final class Counter {  // expected-note {{class 'Counter' does not conform to the 'Sendable' protocol}}
    var count = 0
}

func count(_ task: BFTask<Int>) {
    let counter = Counter()
    // expected-error@+1 {{capture of 'counter' with non-Sendable type 'Counter' in a '@Sendable' closure}}
    task.continueOnSuccessWith(.default) { value in counter.count += value }
    counter.count += 1
}
