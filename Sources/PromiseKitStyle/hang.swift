import Foundation

/// Blocks until `promise` resolves, then returns its value or throws its error.
///
/// On the main thread it runs the main run loop meanwhile, so handlers on `DispatchQueue.main` (the default `conf.Q`)
/// keep running: the way to finish a promise chain at the top level of a command-line tool. On any other thread it
/// simply waits, like `wait()` (PromiseKit stops the program there instead).
public func hang<T>(_ promise: Promise<T>) throws -> T {
    if Thread.isMainThread, promise.isPending {
        // A repeating timer keeps the run loop from returning at once when it has nothing else to do.
        let timer = Timer(timeInterval: 0.01, repeats: true) { _ in }
        RunLoop.current.add(timer, forMode: .default)
        while promise.isPending {
            _ = RunLoop.current.run(mode: .default, before: Date(timeIntervalSinceNow: 0.01))
        }
        timer.invalidate()
    }
    if let result = promise.result { return try result.get() }
    let semaphore = DispatchSemaphore(value: 0)
    promise.pipe { _ in semaphore.signal() }
    semaphore.wait()
    return try promise.result!.get()
}
