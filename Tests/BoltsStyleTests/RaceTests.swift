import BoltsStyle
import Dispatch
import Foundation
import TestSupport
import Testing

/// Many threads racing to complete one task and to add continuations to it.
/// The normal run is small; `PROMISES_STRESS=1` runs the heavy version.
@Suite("Races", .offThePool)
struct RaceTests {
    static let stress = ProcessInfo.processInfo.environment["PROMISES_STRESS"] == "1"
    static let rounds = stress ? 20_000 : 50
    static let racers = stress ? 16 : 8

    @Test func exactlyOneTrySetWinsAndEveryContinuationRunsOnce() {
        for round in 0..<Self.rounds {
            let source = BFTaskCompletionSource<Int>()
            let wins = Counter()
            let runs = Counter()
            let group = DispatchGroup()
            for racer in 0..<Self.racers {
                DispatchQueue.global().async(group: group) {
                    // Half the racers add continuations while the others try to complete.
                    source.task.continueWith(.immediate) { _ in runs.increment() }
                    let won: Bool
                    switch (racer + round) % 3 {
                    case 0: won = source.trySet(result: racer)
                    case 1: won = source.trySet(error: TestError(code: racer))
                    default: won = source.tryCancel()
                    }
                    if won { wins.increment() }
                    source.task.continueWith(.default) { _ in runs.increment() }
                }
            }
            #expect(group.wait(timeout: .now() + generousTimeout) == .success)
            #expect(wins.value == 1)
            // Continuations added before completion ran on the winner's thread; the ones added
            // after ran on their own thread; all have returned once the group is done.
            #expect(runs.value == 2 * Self.racers)
            if wins.value != 1 || runs.value != 2 * Self.racers { return }
        }
    }

    @Test func racingDerivedTasksAllComplete() {
        for _ in 0..<Self.rounds {
            let source = BFTaskCompletionSource<Int>()
            let queue = DispatchQueue(label: "racers", attributes: .concurrent)
            let derived = (0..<Self.racers).map { index in
                source.task.continueOnSuccessWith(.queue(queue)) { $0 + index }
            }
            DispatchQueue.global().async { source.set(result: 100) }
            let all = BFTask.whenAllResult(derived)
            #expect(all.waitUntilCompleted(timeout: generousTimeout))
            #expect(all.result == (0..<Self.racers).map { 100 + $0 })
        }
    }

    @Test func racingCancellationAndRegistration() {
        for _ in 0..<Self.rounds {
            let source = BFCancellationTokenSource()
            let runs = Counter()
            let group = DispatchGroup()
            for racer in 0..<Self.racers {
                DispatchQueue.global().async(group: group) {
                    if racer == 0 {
                        source.cancel()
                    } else {
                        let registration = source.token.register { runs.increment() }
                        if racer % 4 == 0 { registration.dispose() }
                    }
                }
            }
            #expect(group.wait(timeout: .now() + generousTimeout) == .success)
            let kept = (1..<Self.racers).filter { $0 % 4 != 0 }.count
            #expect(runs.value >= kept && runs.value <= Self.racers - 1)
        }
    }

    @Test func racingWaitersAllWakeUp() {
        for _ in 0..<(Self.stress ? 500 : 20) {
            let source = BFTaskCompletionSource<Int>()
            let group = DispatchGroup()
            let woke = Counter()
            for _ in 0..<4 {
                DispatchQueue.global().async(group: group) {
                    if source.task.waitUntilCompleted(timeout: generousTimeout) { woke.increment() }
                }
            }
            source.set(result: 1)
            #expect(group.wait(timeout: .now() + generousTimeout) == .success)
            #expect(woke.value == 4)
        }
    }
}
