import Dispatch
import PromiseKitStyle
import Testing

/// A serial queue that tests pass explicitly as `on:`, so nothing depends on the main queue being served.
let testQueue = DispatchQueue(label: "PromiseKitStyleTests.serial")

/// A concurrent queue for tests that want handlers spread over threads.
let concurrentQueue = DispatchQueue(label: "PromiseKitStyleTests.concurrent", attributes: .concurrent)

struct TestError: Error, Equatable {
    var code = 1
}
