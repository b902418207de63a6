import Dispatch
import Foundation

/// A serial queue that tests pass explicitly as `on:`, so nothing depends on the main queue being served.
let testQueue = DispatchQueue(label: "PromiseKitStyleFoundationTests.serial")

/// 300 bytes holding every byte value: a body whose every byte must arrive as sent.
///
/// Computed rather than stored in a global: a `Data` keeps its storage's address with tag bits in its representation,
/// where LeakSanitizer does not recognise it, so a global one is reported as leaked at exit.
var binaryPayload: Data { Data((0..<300).map { UInt8(truncatingIfNeeded: $0) }) }

/// A new, empty directory under the temporary directory; the caller removes it.
func makeScratchDirectory() throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "PromiseKitStyleFoundationTests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
    return directory
}
