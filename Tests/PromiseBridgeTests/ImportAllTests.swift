import BoltsStyle
import Dispatch
import FBLStyle
import Foundation
import PromiseBridge
import PromiseKitStyle
import TestSupport
import Testing

// This file imports the three styles and the bridge together. What compiles here unqualified is the common use that
// stays unambiguous; only the type name `Promise`, which PromiseKitStyle and FBLStyle both define, needs its module.

@Suite("All three styles and the bridge in one file", timeLimit(minutes: TestEnvironment.hangGuardMinutes))
struct ImportAllTests {
    @Test func commonUseNeedsNoQualificationButPromise() async throws {
        let queue = DispatchQueue(label: "PromiseBridgeTests.importAll")
        // PromiseKitStyle's free functions and types.
        let pmkA = PromiseKitStyle.Promise.value(1)
        let pmkB = PromiseKitStyle.Promise.value(2)
        let both = when(fulfilled: pmkA, pmkB)
        let (one, two) = try await both.async()
        #expect(one == 1 && two == 2)
        #expect(try await race(pmkA, pmkB).async() == 1)
        #expect(try await firstly { pmkA }.async() == 1)
        let guarantee: Guarantee<Int> = after(seconds: 0).map(on: nil) { 3 }
        #expect(await guarantee.async() == 3)
        let (pending, resolver): (PromiseKitStyle.Promise<Int>, Resolver<Int>) = PromiseKitStyle.Promise.pending()
        resolver.reject(PMKError.cancelled)
        #expect(pending.result != nil)
        // FBLStyle's free functions and types.
        let fblA = FBLStyle.Promise(1)
        let fblB = FBLStyle.Promise("b")
        let pair = all(on: queue, fblA, fblB)
        let (number, letter) = try await pair.async()
        #expect(number == 1 && letter == "b")
        #expect(try await race(on: queue, [fblA, FBLStyle.Promise(2)]).async() == 1)
        #expect(PromiseError(PromiseError.timedOut) == .timedOut)
        // BoltsStyle.
        #expect(try await BFTask(4).async() == 4)
        // Error.isCancelled (PromiseKitStyle's, the only one) works for every style's cancellation error.
        #expect(CancellationError().isCancelled)
        #expect(PMKError.cancelled.isCancelled)
        #expect(BFCancelledError().isCancelled)
        let error: any Error = BFCancelledError()
        #expect(error.isCancelled)
    }
}
