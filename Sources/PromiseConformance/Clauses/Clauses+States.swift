import Dispatch
import Foundation

// A+ 2.1: promise states. A settled promise never changes state nor value.

extension ClauseContext {
    /// The cases of 2.1.2 and 2.1.3: settle one way, then try the other ways, and check nothing changed.
    func checkSettledStateIsFinal(_ first: Settlement, then others: [Settlement]) throws {
        let expected = first.outcome
        try inCase("settle again at once") {
            let pending = pending()
            settle(pending, first)
            for other in others { settle(pending, other) }
            try expect.only(observe(pending.promise), expected)
        }
        try inCase("handler registered before, settle again at once") {
            let pending = pending()
            let recorder = observe(pending.promise)
            settle(pending, first)
            for other in others { settle(pending, other) }
            try expect.only(recorder, expected)
            try expect.only(observe(pending.promise), expected, "a handler registered afterwards")
        }
        try inCase("settle again later") {
            let pending = pending()
            let recorder = observe(pending.promise)
            settle(pending, first)
            try expect(recorder, expected)
            for other in others { settle(pending, other) }
            try expect.only(observe(pending.promise), expected, "a handler registered afterwards")
        }
        try inCase("settle again from another thread") {
            let pending = pending()
            settle(pending, first)
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread { [self] in
                for other in others { settle(pending, other) }
                done.signal()
            }
            try expect(done.wait(timeout: clock.deadline) == .success, "timed out settling from another thread")
            try expect.only(observe(pending.promise), expected)
        }
        try inCase("many handlers see the same value") {
            let pending = pending()
            let before = (0..<3).map { _ in observe(pending.promise) }
            settle(pending, first)
            for other in others { settle(pending, other) }
            let after = (0..<3).map { _ in observe(pending.promise) }
            for recorder in before + after { try expect.only(recorder, expected) }
        }
    }
}

let statesClauses: [Clause] = [
    Clause(
        "2.1.1.1", "pending may become fulfilled or rejected",
        "When pending, a promise may transition to either the fulfilled or the rejected state.",
        waitsForAbsence: true,
        cases: [
            "pending, then fulfilled", "fulfilled from another thread", "pending, then rejected",
            "rejected from another thread",
        ]
    ) { context in
        for settlement in [Settlement.fulfil(Sentinel(1)), .reject(SentinelError(1))] {
            try context.inCase("pending, then \(settlement.verb)") {
                let pending = context.pending()
                let recorder = context.observe(pending.promise)
                context.clock.waitGrace()
                try context.expect(recorder.count == 0, "the promise settled by itself: \(recorder.snapshot)")
                context.settle(pending, settlement)
                try context.expect(recorder, settlement.outcome)
                try context.expect(
                    context.observe(pending.promise), settlement.outcome, "a handler registered afterwards")
            }
            try context.inCase("\(settlement.verb) from another thread") {
                let pending = context.pending()
                let recorder = context.observe(pending.promise)
                let settleElsewhere: @Sendable () -> Void = { context.settle(pending, settlement) }
                Thread.detachNewThread(settleElsewhere)
                try context.expect(recorder, settlement.outcome)
            }
        }
    },
    Clause(
        "2.1.2.1", "fulfilled never becomes rejected",
        "When fulfilled, a promise must not transition to any other state.",
        waitsForAbsence: true,
        cases: settledStateCases
    ) { context in
        try context.checkSettledStateIsFinal(.fulfil(Sentinel(1)), then: [.reject(SentinelError(2))])
    },
    Clause(
        "2.1.2.2", "a fulfilled value never changes",
        "When fulfilled, a promise must have a value, which must not change.",
        waitsForAbsence: true,
        cases: settledStateCases
    ) { context in
        try context.checkSettledStateIsFinal(.fulfil(Sentinel(1)), then: [.fulfil(Sentinel(3))])
    },
    Clause(
        "2.1.3.1", "rejected never becomes fulfilled",
        "When rejected, a promise must not transition to any other state.",
        waitsForAbsence: true,
        cases: settledStateCases
    ) { context in
        try context.checkSettledStateIsFinal(.reject(SentinelError(1)), then: [.fulfil(Sentinel(2))])
    },
    Clause(
        "2.1.3.2", "a rejection reason never changes",
        "When rejected, a promise must have a reason, which must not change.",
        waitsForAbsence: true,
        cases: settledStateCases
    ) { context in
        try context.checkSettledStateIsFinal(.reject(SentinelError(1)), then: [.reject(SentinelError(3))])
    },
]

private let settledStateCases = [
    "settle again at once", "handler registered before, settle again at once", "settle again later",
    "settle again from another thread", "many handlers see the same value",
]
