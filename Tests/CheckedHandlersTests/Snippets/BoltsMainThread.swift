// Correct: a continuation on `.mainThread` runs on the main thread, so main-actor code compiles there, written as for
// Bolts or marked `@MainActor`. No diagnostic.
import BoltsStyle

@MainActor final class Screen {
    var label = ""

    func show(_ task: BFTask<String>) {
        task.continueWith(.mainThread) { task in self.label = task.result ?? "" }
        task.continueOnSuccessWith(.mainThread) { @MainActor value in self.label = value }
        task.continueOnErrorWith(.mainThread) { error in
            self.label = "\(error)"
            return ""
        }
    }
}
