// Hazard: BoltsStyle's `.queue(q)` executor runs the continuation on `q`.
import BoltsStyle
import Dispatch

@MainActor final class Screen {
    var label = ""  // expected-note {{mutation of this property is only permitted within the actor}}
    let queue = DispatchQueue(label: "work")

    func show(_ task: BFTask<String>) {
        // expected-error@+1 {{main actor-isolated property 'label' can not be mutated from a Sendable closure}}
        task.continueOnSuccessWith(.queue(queue)) { value in self.label = value }
    }
}
