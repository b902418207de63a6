// Hazard: BoltsStyle's `.default` executor runs the continuation on the thread that completed the task (or inline),
// not on the main actor. Under CheckedHandlers the continuation is `@Sendable`, so main-actor state in it is an error.
import BoltsStyle

@MainActor final class Screen {
    var label = ""  // expected-note {{mutation of this property is only permitted within the actor}}

    func show(_ task: BFTask<String>) {
        // expected-error@+1 {{main actor-isolated property 'label' can not be mutated from a Sendable closure}}
        task.continueWith(.default) { task in self.label = task.result ?? "" }
    }
}
