import Dispatch
import Foundation
import PromiseKitStyle
import TestSupport
import Testing

/// True when `PROMISES_STRESS=1`: the long runs repeat many more times.
let stressRun = ProcessInfo.processInfo.environment["PROMISES_STRESS"] == "1"

/// Chains of a million steps (``TestEnvironment/longChainLength``), built, run and freed without recursion. One test at
/// a time (`.serialized`): several busy threads gain nothing on 2 cores, and under the thread sanitizer they contend
/// on the Swift runtime's metadata-cache lock, which an unspecialized debug build takes at every generic step.
@Suite("Long chains", .offThePool, .serialized)
struct LongChainTests {
    static let length = TestEnvironment.longChainLength

    @Test func millionInlineMapsResolvedAfterTheChainIsBuilt() async throws {
        let (root, resolver) = Promise<Int>.pending()
        var tail = root
        for _ in 0..<Self.length { tail = tail.map(on: nil) { $0 + 1 } }
        resolver.fulfill(0)  // runs a million inline handlers: the trampoline keeps the stack flat
        #expect(tail.value == Self.length)
    }

    @Test func millionInlineThensResolvedAfterTheChainIsBuilt() async throws {
        let (root, resolver) = Promise<Int>.pending()
        var tail = root
        for _ in 0..<Self.length { tail = tail.then(on: nil) { Promise.value($0 + 1) } }
        resolver.fulfill(0)
        #expect(tail.value == Self.length)
    }

    @Test func millionGuaranteeMapsInline() async {
        let (root, resolve) = Guarantee<Int>.pending()
        var tail = root
        for _ in 0..<Self.length { tail = tail.map(on: nil) { $0 + 1 } }
        resolve(0)
        #expect(tail.value == Self.length)
    }

    @Test func millionStepsOnARealQueueResolvedAfterTheChainIsBuilt() async throws {
        let (root, resolver) = Promise<Int>.pending()
        var tail = root
        for index in 0..<Self.length {
            tail =
                index.isMultiple(of: 2)
                ? tail.map(on: testQueue) { $0 + 1 }
                : tail.then(on: testQueue) {
                    Promise.value($0 + 1)
                }
        }
        resolver.fulfill(0)
        #expect(try await tail.async() == Self.length)
    }

    @Test func millionStepsOnAnAlreadyResolvedRoot() async throws {
        var tail = Promise.value(0)
        for _ in 0..<Self.length { tail = tail.map(on: nil) { $0 + 1 } }
        #expect(tail.value == Self.length)
    }
}
