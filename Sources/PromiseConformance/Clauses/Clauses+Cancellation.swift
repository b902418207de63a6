import Dispatch
import Foundation

// The suite's clause for cancellation, where the adapter declares it.

extension ClauseContext {
    /// Waits for the first outcome, lets misbehaviour show, and checks every outcome is a cancellation.
    func expectCancelled(_ recorder: Recorder<Outcome>, _ what: String) throws {
        try recorder.wait(for: 1, "\(what) to be cancelled", in: clock)
        clock.waitGrace()
        for seen in recorder.snapshot {
            guard case .rejected(let error) = seen, adapter.isCancellation(error) else {
                throw failure("expected \(what) to be cancelled, but it was \(seen)")
            }
        }
        try expect(recorder.count == 1, "the handler of \(what) was called \(recorder.count) times")
    }
}

let cancellationClauses: [Clause] = [
    Clause(
        "swift.cancel", "cancellation",
        "Cancelling a pending promise settles it as cancelled once, and promises derived from it without a rejection "
            + "handler are cancelled too; cancelling a settled promise changes nothing.",
        requires: .cancellation,
        waitsForAbsence: true,
        cases: [
            "cancel a pending promise", "cancel twice", "cancel from another thread", "cancellation flows down a chain",
            "cancel after fulfilment", "fulfil after cancellation",
        ]
    ) { context in
        try context.inCase("cancel a pending promise") {
            let cancellable = context.adapter.cancellablePending()
            let recorder = context.observe(cancellable.promise)
            cancellable.cancel()
            try context.expectCancelled(recorder, "the promise")
        }
        try context.inCase("cancel twice") {
            let cancellable = context.adapter.cancellablePending()
            let recorder = context.observe(cancellable.promise)
            cancellable.cancel()
            cancellable.cancel()
            try context.expectCancelled(recorder, "the promise")
        }
        try context.inCase("cancel from another thread") {
            let cancellable = context.adapter.cancellablePending()
            let recorder = context.observe(cancellable.promise)
            Thread.detachNewThread { cancellable.cancel() }
            try context.expectCancelled(recorder, "the promise")
        }
        try context.inCase("cancellation flows down a chain") {
            let cancellable = context.adapter.cancellablePending()
            let ran = Recorder<Int>()
            let first = context.then(cancellable.promise, onFulfilled: fulfilling { _ in ran.record(1) })
            let second = context.then(first, onFulfilled: fulfilling { _ in ran.record(2) })
            let recorder = context.observe(second)
            cancellable.cancel()
            try context.expectCancelled(recorder, "the derived promise")
            try context.expect(ran.count == 0, "onFulfilled ran on a cancelled promise")
        }
        try context.inCase("cancel after fulfilment") {
            let cancellable = context.adapter.cancellablePending()
            cancellable.fulfill(Sentinel(1))
            cancellable.cancel()
            try context.expect.only(context.observe(cancellable.promise), .fulfilled(Sentinel(1)))
        }
        try context.inCase("fulfil after cancellation") {
            let cancellable = context.adapter.cancellablePending()
            cancellable.cancel()
            cancellable.fulfill(Sentinel(1))
            try context.expectCancelled(context.observe(cancellable.promise), "the promise")
        }
    }
]
