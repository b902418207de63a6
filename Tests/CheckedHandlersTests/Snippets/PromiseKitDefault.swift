// Hazard: PromiseKitStyle's default queue is `conf.Q`, the main queue until some module moves it (it is process-wide),
// so the compiler cannot know where a handler without `on:` runs.
import PromiseKitStyle

@MainActor final class Screen {
    var label = ""  // expected-note {{mutation of this property is only permitted within the actor}}

    func show(_ promise: Promise<String>) {
        // expected-error@+1 {{main actor-isolated property 'label' can not be mutated from a Sendable closure}}
        promise.done { value in self.label = value }.cauterize()
    }
}
