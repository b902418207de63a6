// Hazard: FBLStyle's `on: q` runs the block on `q`.
import Dispatch
import FBLStyle

@MainActor final class Screen {
    var label = ""  // expected-note {{mutation of this property is only permitted within the actor}}
    let queue = DispatchQueue(label: "work")

    func show(_ promise: Promise<String>) {
        // expected-error@+1 {{main actor-isolated property 'label' can not be mutated from a Sendable closure}}
        promise.then(on: queue) { value in self.label = value }
    }
}
