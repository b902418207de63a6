// demo-deferred-fill-race: two threads that fill the same unfilled Deferred at the same moment can both succeed: both
// `fill` calls return true, and the handlers see different values (the suite's swift.race). For a value that is not a
// class instance, `fill` checks "not yet filled" and then stores the value and the flag in separate steps
// (Atomics.swift:140-145, `bnr_atomic_initialize_once` for a Bool), with nothing to stop another `fill` in between.
// Only odds can be had (the window is a few instructions wide): 100 trials of 1,000 races each, counted.
// Imports only the library (module Deferred) and Foundation/Dispatch.
import Deferred
import Foundation

/// A spinning barrier for two threads: each calls `arrive(round:)` and returns once both have, within nanoseconds.
final class Barrier: @unchecked Sendable {
    private let lock = NSLock()
    private var arrived = 0
    func arrive(round: Int) {
        lock.withLock { arrived += 1 }
        while lock.withLock({ arrived }) < 2 * (round + 1) {}
    }
}

/// Hands the round's deferreds to the racing threads (`Deferred` is thread-safe, but not declared `Sendable`).
struct Shared<Value>: @unchecked Sendable { let value: Value }

/// What each racing thread saw in each round: whether its `fill` returned true. One buffer per thread, so that the
/// two threads never write to the same memory.
final class Results: @unchecked Sendable {
    let won: [UnsafeMutableBufferPointer<Bool>]
    init(rounds: Int) {
        won = (0..<2).map { _ in
            let buffer = UnsafeMutableBufferPointer<Bool>.allocate(capacity: rounds)
            buffer.initialize(repeating: false)
            return buffer
        }
    }
    deinit { for buffer in won { buffer.deallocate() } }
}

/// One trial: `rounds` fresh deferreds, each filled by two threads at once with 1 and 2, with one handler registered
/// before. Returns how many rounds both fills returned true, and how many rounds handlers saw different values.
func trial(rounds: Int) -> (bothWon: Int, differentValues: Int) {
    let deferreds = (0..<rounds).map { _ in Deferred<Int>() }
    let seen = (0..<rounds).map { _ in Deferred<Int>() }
    for (index, deferred) in deferreds.enumerated() {
        deferred.upon(DispatchQueue.global()) { value in seen[index].fill(with: value) }
    }
    let barrier = Barrier()
    let results = Results(rounds: rounds)
    let shared = Shared(value: deferreds)
    let done = DispatchGroup()
    for party in 0..<2 {
        done.enter()
        Thread {
            for round in 0..<rounds {
                barrier.arrive(round: round)
                results.won[party][round] = shared.value[round].fill(with: party + 1)
            }
            done.leave()
        }.start()
    }
    done.wait()
    var bothWon = 0
    var differentValues = 0
    for round in 0..<rounds {
        if results.won[0][round] && results.won[1][round] { bothWon += 1 }
        let before = seen[round].wait(until: .distantFuture)!
        let after = deferreds[round].peek()!
        if before != after { differentValues += 1 }
    }
    return (bothWon, differentValues)
}

var trialsWithDoubleFill = 0
var totalBothWon = 0
var totalDifferent = 0
for _ in 0..<100 {
    let (bothWon, different) = trial(rounds: 1_000)
    if bothWon > 0 { trialsWithDoubleFill += 1 }
    totalBothWon += bothWon
    totalDifferent += different
}
print(
    "100 trials of 1,000 rounds; in each round two threads call fill(with: 1) and fill(with: 2) on a new Deferred<Int>")
print("trials with at least one round where both fill calls returned true: \(trialsWithDoubleFill) of 100")
print("rounds where both fill calls returned true: \(totalBothWon) of 100000")
print(
    "rounds where the handler registered before saw another value than peek() afterwards: \(totalDifferent) of 100000")
print("expected (A+ 2.1.2, 2.1.3): exactly one fill returns true in every round, and every reader sees that value")
