// Correct: a handler with `on: .main` runs on the main queue, so main-actor code compiles there, written as for
// PromiseKit or marked `@MainActor`. No diagnostic.
import PromiseKitStyle

@MainActor final class Screen {
    var label = ""

    func show(_ promise: Promise<String>) {
        promise.map(on: .main) { value in value.count }
            .done(on: .main) { @MainActor count in self.label = "\(count)" }
            .ensure(on: .main) { self.label += "." }
            .catch(on: .main) { error in self.label = "\(error)" }
    }
}
