import Dispatch
import Foundation

// The suite's clauses for the combinators an adapter declares: all, race, any.

extension ClauseContext {
    /// `count` pending promises.
    func pendings(_ count: Int) -> [ErasedAdapter.Pending] {
        (0..<count).map { _ in pending() }
    }

    /// Calls `all` and records what its completion sees.
    func all(_ promises: [ErasedPromise]) -> Recorder<Result<[Sentinel], any Error>> {
        let recorder = Recorder<Result<[Sentinel], any Error>>()
        adapter.all(promises) { recorder.record($0) }
        return recorder
    }

    /// Waits for `all`'s completion, lets a second call show, and returns its only result.
    func onlyResult(_ recorder: Recorder<Result<[Sentinel], any Error>>) throws -> Result<[Sentinel], any Error> {
        try recorder.wait(for: 1, "all's completion", in: clock)
        clock.waitGrace()
        try expect(recorder.count == 1, "all's completion was called \(recorder.count) times")
        return recorder.snapshot[0]
    }
}

let combinatorClauses: [Clause] = [
    Clause(
        "swift.combinator.all", "all: every value in order, or the first rejection",
        "all(promises) fulfils with every value in input order once all fulfil, and rejects with the first rejection.",
        requires: .all,
        waitsForAbsence: true,
        cases: [
            "inputs fulfilled in reverse order from other threads", "inputs already fulfilled", "no input",
            "one input rejects while others are pending", "the first of two rejections wins",
        ]
    ) { context in
        try context.inCase("inputs fulfilled in reverse order from other threads") {
            let inputs = context.pendings(5)
            let recorder = context.all(inputs.map(\.promise))
            DispatchQueue.global().async {
                for (index, input) in inputs.enumerated().reversed() { input.fulfill(Sentinel(index)) }
            }
            let result = try context.onlyResult(recorder)
            let values = try? result.get()
            try context.expect(values == (0..<5).map(Sentinel.init), "all gave \(result)")
        }
        try context.inCase("inputs already fulfilled") {
            let result = try context.onlyResult(context.all((0..<3).map { context.adapter.fulfilled(Sentinel($0)) }))
            try context.expect((try? result.get()) == (0..<3).map(Sentinel.init), "all gave \(result)")
        }
        try context.inCase("no input") {
            let result = try context.onlyResult(context.all([]))
            try context.expect((try? result.get()) == [], "all of nothing gave \(result)")
        }
        try context.inCase("one input rejects while others are pending") {
            let inputs = context.pendings(3)
            let recorder = context.all(inputs.map(\.promise))
            inputs[1].reject(SentinelError(1))
            let result = try context.onlyResult(recorder)
            guard case .failure(let error) = result, (error as? SentinelError) == SentinelError(1) else {
                throw context.failure("all gave \(result), not the rejection SentinelError(1)")
            }
            withExtendedLifetime(inputs) {}
        }
        try context.inCase("the first of two rejections wins") {
            let inputs = context.pendings(3)
            let recorder = context.all(inputs.map(\.promise))
            inputs[2].reject(SentinelError(2))
            try recorder.wait(for: 1, "all's completion", in: context.clock)
            inputs[0].reject(SentinelError(0))
            inputs[1].fulfill(Sentinel(1))
            let result = try context.onlyResult(recorder)
            guard case .failure(let error) = result, (error as? SentinelError) == SentinelError(2) else {
                throw context.failure("all gave \(result), not the first rejection SentinelError(2)")
            }
        }
    },
    Clause(
        "swift.combinator.race", "race: the first to settle",
        "race(promises) settles like the first input to settle, fulfilled or rejected; later settlements are ignored "
            + "(the suite settles the others only after the race settled).",
        requires: .race,
        waitsForAbsence: true,
        cases: ["a fulfilment first", "a rejection first", "an input already fulfilled"]
    ) { context in
        try context.inCase("a fulfilment first") {
            let inputs = context.pendings(3)
            let race = context.adapter.race(inputs.map(\.promise))
            let recorder = context.observe(race)
            inputs[1].fulfill(Sentinel(1))
            try recorder.wait(for: 1, "the race", in: context.clock)
            inputs[0].reject(SentinelError(0))
            inputs[2].fulfill(Sentinel(2))
            try context.expect.only(recorder, .fulfilled(Sentinel(1)), "the race")
        }
        try context.inCase("a rejection first") {
            let inputs = context.pendings(3)
            let race = context.adapter.race(inputs.map(\.promise))
            let recorder = context.observe(race)
            inputs[2].reject(SentinelError(2))
            try recorder.wait(for: 1, "the race", in: context.clock)
            inputs[0].fulfill(Sentinel(0))
            try context.expect.only(recorder, .rejected(SentinelError(2)), "the race")
            withExtendedLifetime(inputs) {}
        }
        try context.inCase("an input already fulfilled") {
            let inputs = context.pendings(2)
            let race = context.adapter.race([
                inputs[0].promise, context.adapter.fulfilled(Sentinel(5)), inputs[1].promise,
            ])
            try context.expect.only(context.observe(race), .fulfilled(Sentinel(5)), "the race")
            withExtendedLifetime(inputs) {}
        }
    },
    Clause(
        "swift.combinator.any", "any: the first fulfilment, or rejection once all reject",
        "any(promises) fulfils like the first input to fulfil, even after rejections, and rejects once every input "
            + "has rejected.",
        requires: .any,
        waitsForAbsence: true,
        cases: ["a fulfilment after a rejection", "every input rejects", "an input already fulfilled"]
    ) { context in
        try context.inCase("a fulfilment after a rejection") {
            let inputs = context.pendings(3)
            let any = context.adapter.any(inputs.map(\.promise))
            let recorder = context.observe(any)
            inputs[0].reject(SentinelError(0))
            context.clock.waitGrace()
            try context.expect(recorder.count == 0, "any settled after one rejection: \(recorder.snapshot)")
            inputs[2].fulfill(Sentinel(2))
            try recorder.wait(for: 1, "any", in: context.clock)
            inputs[1].fulfill(Sentinel(1))
            try context.expect.only(recorder, .fulfilled(Sentinel(2)), "any")
        }
        try context.inCase("every input rejects") {
            let inputs = context.pendings(3)
            let any = context.adapter.any(inputs.map(\.promise))
            let recorder = context.observe(any)
            for (index, input) in inputs.enumerated() { input.reject(SentinelError(index)) }
            try recorder.wait(for: 1, "any", in: context.clock)
            try context.expect(
                recorder.snapshot[0].isRejected, "any was \(recorder.snapshot[0]) after every input rejected")
        }
        try context.inCase("an input already fulfilled") {
            let inputs = context.pendings(1)
            let any = context.adapter.any([
                context.adapter.rejected(SentinelError(0)), context.adapter.fulfilled(Sentinel(5)), inputs[0].promise,
            ])
            try context.expect.only(context.observe(any), .fulfilled(Sentinel(5)), "any")
            withExtendedLifetime(inputs) {}
        }
    },
]
