// Correct: a block with `on: .main` runs on the main queue, so main-actor code compiles there, written as for Google's
// Promises or marked `@MainActor`. No diagnostic.
import FBLStyle

@MainActor final class Screen {
    var label = ""

    func show(_ promise: Promise<String>) {
        promise.then(on: .main) { value in self.label = value }
            .catch(on: .main) { @MainActor error in self.label = "\(error)" }
            .always(on: .main) { self.label += "." }
    }
}
