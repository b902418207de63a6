// swift.deepChain measures a chain as it settles: a chain that keeps moving gets more time than one case's limit (a
// slow or busy machine), and one that stops fails, saying how far it got.
import Dispatch
import FlawedPromises
import Foundation
import PromiseConformance
import TestSupport
import Testing

/// The reference promise, but each handler run on the clause's "chain" queue (the case "on a serial queue") first
/// sleeps for `perStep` (sleeping, not working, so that a busy machine only makes the steps longer): a chain of 20,000
/// such steps takes more than one case time limit. With `stallAt`, the handler of
/// that step waits for `release` instead: the chain stops there.
private struct SlowChainAdapter: PromiseAdapter {
    let base = ReferenceAdapter()
    let perStep: Duration
    var stallAt: Int?
    let steps = Locked(0)
    let release = DispatchSemaphore(value: 0)

    var name: String { "SlowChain" }

    func pending() -> (
        promise: ReferencePromise<Sentinel>, fulfill: @Sendable (Sentinel) -> Void,
        reject: @Sendable (any Error) -> Void
    ) {
        base.pending()
    }

    func then(
        _ promise: ReferencePromise<Sentinel>, on queue: DispatchQueue?,
        onFulfilled: (@Sendable (Sentinel) -> HandlerResult<ReferencePromise<Sentinel>>)?,
        onRejected: (@Sendable (any Error) -> HandlerResult<ReferencePromise<Sentinel>>)?
    ) -> ReferencePromise<Sentinel> {
        guard queue?.label == "PromiseConformance.chain", let onFulfilled else {
            return base.then(promise, on: queue, onFulfilled: onFulfilled, onRejected: onRejected)
        }
        let (perStep, stallAt, steps, release) = (perStep, stallAt, steps, release)
        return base.then(
            promise, on: queue,
            onFulfilled: { value in
                let step = steps.withLock { count in
                    count += 1
                    return count
                }
                if step == stallAt { release.wait() }
                let (seconds, attoseconds) = perStep.components
                if perStep > .zero { Thread.sleep(forTimeInterval: Double(seconds) + Double(attoseconds) / 1e18) }
                return onFulfilled(value)
            }, onRejected: onRejected)
    }
}

@Suite(.offThePool) struct DeepChainUnderLoad {
    static let clause = Clause.named("swift.deepChain")!

    /// At least 6 s of steps (20,000 sleeps of 300 µs each, however fast the machine) against a 4 s case limit, each
    /// checkpoint (1,000 steps) a tenth of the limit or so: the case passes because the chain keeps moving. (Only that
    /// case is checked: the clause's others are not slowed.)
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func aChainThatKeepsMovingGetsMoreTimeThanOneCaseLimit() async {
        let adapter = SlowChainAdapter(perStep: .microseconds(300))
        let result = await Conformance.run(
            adapter, clause: Self.clause, timeout: .seconds(4 * TestEnvironment.limitScale), stress: false)
        let slowed = result.caseResults.first { $0.name == "on a serial queue" }
        #expect(slowed?.passed == true, "\(result.status)")
        #expect(adapter.steps.withLock { $0 } >= 20_000)
    }

    /// A chain that stops half way fails at the case's limit, and says how far it got.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func aChainThatStopsFailsSayingHowFarItGot() async {
        var adapter = SlowChainAdapter(perStep: .zero)
        adapter.stallAt = 10_500
        let result = await Conformance.run(
            adapter, clause: Self.clause, timeout: .seconds(2 * TestEnvironment.limitScale), stress: false)
        adapter.release.signal()
        guard case .failed(let message) = result.status else {
            Issue.record("expected a failure, got \(result.status)")
            return
        }
        #expect(message.contains("on a serial queue: timed out waiting for the end of the chain"), "\(message)")
        #expect(message.contains("10000 of 20000 steps"), "\(message)")
        #expect(result.caseResults.count == 5, "the clause's other cases still ran")
    }
}
