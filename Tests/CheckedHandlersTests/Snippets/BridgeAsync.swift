// Correct: leaving promises for `async`/`await` with the bridge's `async()`: the code after the `await` runs on the main
// actor, which the compiler checks. No diagnostic.
import BoltsStyle
import FBLStyle
import PromiseBridge
import PromiseKitStyle

@MainActor final class Screen {
    var label = ""

    func show(
        _ task: BFTask<String>, _ promise: PromiseKitStyle.Promise<String>, _ fbl: FBLStyle.Promise<String>
    ) async throws {
        label = try await task.async()
        label = try await promise.async()
        label = try await fbl.async()
        label = try await promise.asBFTask().async()
    }
}
