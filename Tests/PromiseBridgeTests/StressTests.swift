import BoltsStyle
import Dispatch
import FBLStyle
import Foundation
import PromiseBridge
import PromiseKitStyle
import TestSupport
import Testing

@Suite("Many conversions in flight", timeLimit(minutes: TestEnvironment.hangGuardMinutes))
struct StressTests {
    /// 10,000 in a normal run; `PROMISES_STRESS=1` makes it 200,000.
    static let count = ProcessInfo.processInfo.environment["PROMISES_STRESS"] == "1" ? 200_000 : 10_000

    @Test(.offThePool) func tenThousandConversionsInFlightAtOnce() async {
        let count = Self.count
        let pairs: [(Style, Style)] = Style.allCases.flatMap { source in
            Style.targets.filter { $0 != source }.map { (source, $0) }
        }
        let errors = (0..<3).map { IdentifiedError($0) }
        var settlers: [@Sendable (Outcome, Int, IdentifiedError) -> Void] = []
        var targets: [AnyPromise<Int>] = []
        var outcomes: [Outcome] = []
        settlers.reserveCapacity(count)
        targets.reserveCapacity(count)
        for index in 0..<count {
            let (source, target) = pairs[index % pairs.count]
            let (promise, settle) = makePending(source)
            settlers.append(settle)
            targets.append(promise.converted(to: target))
            outcomes.append(source == .guarantee ? .value : [Outcome.value, .error, .cancelled][index % 3])
        }
        // All of them are pending at once.
        #expect(targets.allSatisfy { $0.observed == nil })
        let countdown = Countdown(count)
        for target in targets {
            Task { [target] in
                _ = await target.settled()
                countdown.tick()
            }
        }
        let settle = settlers
        let frozenOutcomes = outcomes
        DispatchQueue.concurrentPerform(iterations: 8) { slice in
            for index in stride(from: slice, to: count, by: 8) {
                settle[index](frozenOutcomes[index], index, errors[index % 3])
            }
        }
        await countdown.wait()
        var wrong = 0
        for index in 0..<count {
            switch (targets[index].observed, outcomes[index]) {
            case (.value(let value)?, .value) where value == index: break
            case (.error(let error)?, .error) where (error as? IdentifiedError) === errors[index % 3]: break
            case (.cancelled?, .cancelled): break
            default: wrong += 1
            }
        }
        #expect(wrong == 0)
    }
}
