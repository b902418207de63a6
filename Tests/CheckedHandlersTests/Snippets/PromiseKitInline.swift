// Hazard: PromiseKitStyle's `on: nil` runs the handler on the thread that resolves the promise.
import PromiseKitStyle

@MainActor final class Screen {
    var label = ""  // expected-note {{mutation of this property is only permitted within the actor}}

    func show(_ promise: Promise<String>) {
        // expected-error@+1 {{main actor-isolated property 'label' can not be mutated from a Sendable closure}}
        promise.done(on: nil) { value in self.label = value }.cauterize()
    }
}
