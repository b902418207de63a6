// Hazard: BoltsStyle's `.immediate` executor runs the continuation on the thread that completes the task.
import BoltsStyle

@MainActor final class Screen {
    var label = ""  // expected-note {{mutation of this property is only permitted within the actor}}

    func show(_ task: BFTask<String>) {
        // expected-error@+1 {{main actor-isolated property 'label' can not be mutated from a Sendable closure}}
        task.continueOnSuccessWith(.immediate) { value in self.label = value }
    }
}
