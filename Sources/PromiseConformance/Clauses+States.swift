import Dispatch
import Foundation

// A+ 2.1: promise states. A settled promise never changes state nor value.

extension ClauseContext {
    /// Waits for the first outcome, lets misbehaviour show, and checks every outcome seen is `expected`.
    func expectOnly(_ recorder: Recorder<Outcome>, _ expected: Outcome, _ what: String = "the promise") throws {
        try expect(recorder, expected, what)
        waitGrace()
        for seen in recorder.snapshot where !seen.same(as: expected) {
            throw failure("\(what) was \(expected), then \(seen)")
        }
    }

    /// The cases of 2.1.2 and 2.1.3: settle one way, then try the other ways, and check nothing changed.
    func checkSettledStateIsFinal(_ first: Settlement, then others: [Settlement]) throws {
        let expected = first.outcome
        try inCase("settle again at once") {
            let pending = pending()
            settle(pending, first)
            for other in others { settle(pending, other) }
            try expectOnly(observe(pending.promise), expected)
        }
        try inCase("handler registered before, settle again at once") {
            let pending = pending()
            let recorder = observe(pending.promise)
            settle(pending, first)
            for other in others { settle(pending, other) }
            try expectOnly(recorder, expected)
            try expectOnly(observe(pending.promise), expected, "a handler registered afterwards")
        }
        try inCase("settle again later") {
            let pending = pending()
            let recorder = observe(pending.promise)
            settle(pending, first)
            try expect(recorder, expected)
            for other in others { settle(pending, other) }
            try expectOnly(observe(pending.promise), expected, "a handler registered afterwards")
        }
        try inCase("settle again from another thread") {
            let pending = pending()
            settle(pending, first)
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread { [self] in
                for other in others { settle(pending, other) }
                done.signal()
            }
            try expect(done.wait(timeout: deadline) == .success, "timed out settling from another thread")
            try expectOnly(observe(pending.promise), expected)
        }
        try inCase("many handlers see the same value") {
            let pending = pending()
            let before = (0..<3).map { _ in observe(pending.promise) }
            settle(pending, first)
            for other in others { settle(pending, other) }
            let after = (0..<3).map { _ in observe(pending.promise) }
            for recorder in before + after { try expectOnly(recorder, expected) }
        }
    }
}

let statesClauses: [Clause] = [
    Clause(
        "2.1.2", "fulfilled is final",
        "When fulfilled, a promise must not transition to any other state, and its value must not change.",
        cases: [
            "settle again at once", "handler registered before, settle again at once", "settle again later",
            "settle again from another thread", "many handlers see the same value",
        ]
    ) { context in
        try context.checkSettledStateIsFinal(
            .fulfil(Sentinel(1)), then: [.reject(SentinelError(2)), .fulfil(Sentinel(3))])
    },
    Clause(
        "2.1.3", "rejected is final",
        "When rejected, a promise must not transition to any other state, and its reason must not change.",
        cases: [
            "settle again at once", "handler registered before, settle again at once", "settle again later",
            "settle again from another thread", "many handlers see the same value",
        ]
    ) { context in
        try context.checkSettledStateIsFinal(
            .reject(SentinelError(1)), then: [.fulfil(Sentinel(2)), .reject(SentinelError(3))])
    },
]
