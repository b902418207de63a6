// Hazard: PromiseKitStyle's `on: q` runs the handler on `q`.
import Dispatch
import PromiseKitStyle

@MainActor final class Screen {
    var label = ""  // expected-note {{mutation of this property is only permitted within the actor}}
    let queue = DispatchQueue(label: "work")

    func show(_ promise: Promise<String>) {
        // expected-error@+1 {{main actor-isolated property 'label' can not be mutated from a Sendable closure}}
        promise.done(on: queue) { value in self.label = value }.cauterize()
    }
}
