// The main-actor forms at run time, for CheckedHandlersTests: a process that serves the main queue (its top-level
// code awaits, so it is an `async` main) chains one handler isolated to the main actor in each style, settles each
// promise from another queue, and prints where each handler ran. The handlers touch `screen`, main-actor state, so
// this file compiles only because `.mainThread` and `on: .main` pick the main-actor forms; that each ran on the main
// queue, and that `MainActor.assumeIsolated` in them did not stop the program, is what the test reads. (On Linux the
// main queue of an `async` main is served by a thread of Dispatch's, not the process's first thread: the main actor
// is the main queue, wherever it runs.)

import BoltsStyle
import Dispatch
import FBLStyle
import PromiseKitStyle

#if CheckedHandlers
    /// Main-actor state, as a view controller's.
    @MainActor final class Screen {
        var shown: [String] = []
    }

    let screen = Screen()
    let background = DispatchQueue(label: "background")
    let mainQueueKey = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: mainQueueKey, value: true)
    /// Whether the caller runs on the main queue.
    func onMainQueue() -> Bool { DispatchQueue.getSpecific(key: mainQueueKey) ?? false }

    let source = BFTaskCompletionSource<String>()
    let bolts = source.task.continueOnSuccessWith(.mainThread) { value in
        screen.shown.append("BoltsStyle \(value) on the main queue: \(onMainQueue())")
    }
    background.async { source.set(result: "A") }
    _ = try await bolts.async()

    let (promise, seal) = PromiseKitStyle.Promise<String>.pending()
    let done = promise.done(on: .main) { value in
        screen.shown.append("PromiseKitStyle \(value) on the main queue: \(onMainQueue())")
    }
    background.async { seal.fulfill("B") }
    try await done.async()

    let pending = FBLStyle.Promise<String>.pending()
    let then = pending.then(on: .main) { value in
        screen.shown.append("FBLStyle \(value) on the main queue: \(onMainQueue())")
    }
    background.async { pending.fulfill("C") }
    _ = try await then.async()

    for line in screen.shown { print(line) }
#else
    print("the trait CheckedHandlers is off")
#endif
