import Dispatch
import Foundation

/// The error `awaitPromise(_:)` throws instead of blocking the main thread.
public enum AwaitPromiseError: Error, Equatable, CustomStringConvertible {
    /// `awaitPromise(_:)` was called on the main thread, where blocking would freeze the app and could deadlock
    /// against blocks waiting for the main queue (the default queue, ``Dispatch/DispatchQueue/promises``).
    case calledOnMainThread

    /// A sentence explaining the error.
    public var description: String {
        switch self {
        case .calledOnMainThread:
            return "awaitPromise(_:) refuses to block the main thread; await the promise from a background thread, "
                + "or chain a block with then(on:_:) instead"
        }
    }
}

/// Blocks the current thread until `promise` is resolved; returns its value or throws its error.
///
/// - Important: Blocking can deadlock. If the blocks that will resolve `promise` need the queue (or a serial queue
///   targeting the thread) that is blocked here, they never run and this call never returns. In particular the main
///   queue is the default ``Dispatch/DispatchQueue/promises``, so this function refuses to run on the main thread and
///   throws ``AwaitPromiseError/calledOnMainThread`` instead, without looking at the promise. Never call it from a
///   block running on a serial queue that the promise's work also needs, nor from Swift concurrency's cooperative
///   threads (use ``Promise/async()`` there).
/// - Parameter promise: The promise to wait for.
/// - Returns: The value `promise` was fulfilled with.
/// - Throws: The error `promise` was rejected with, or ``AwaitPromiseError/calledOnMainThread``.
public func awaitPromise<Value>(_ promise: Promise<Value>) throws -> Value {
    try awaitPromise(promise, onMainThread: Thread.isMainThread)
}

/// `awaitPromise(_:)` with the main-thread check made explicit (tests cannot run on the main thread).
func awaitPromise<Value>(_ promise: Promise<Value>, onMainThread: Bool) throws -> Value {
    if onMainThread { throw AwaitPromiseError.calledOnMainThread }
    if let resolution = promise.currentResolution { return Promise.valueForBlocks(try resolution.get()) }
    let semaphore = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var result: Promise<Value>.Resolution?
    promise.observe(on: nil) { resolution in
        result = resolution
        semaphore.signal()
    }
    semaphore.wait()
    return Promise.valueForBlocks(try result!.get())
}
