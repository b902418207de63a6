import Dispatch
import Foundation
import PromiseConformance
import TestSupport
import Testing

/// `swift.concurrentRegistration` says exactly what was wrong: the order, with the handlers where it broke, or the
/// count, with the handlers that ran other than once. Each fake below gets every registering thread's handlers wrong in
/// the same set way, whatever the interleaving, so the message is known to the word.
@Suite struct ConcurrentRegistrationMessages {
    /// The failure message of `swift.concurrentRegistration` over a promise with `fault`, or "" (and an issue) when it
    /// did not fail.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    static func message(_ fault: Misregistering.Fault, timeout: Duration? = nil) async throws -> String {
        let clause = try #require(Clause.named("swift.concurrentRegistration"))
        let result = await Conformance.run(
            MisregisteringAdapter(fault: fault), clause: clause, timeout: timeout ?? TestEnvironment.clauseTimeout,
            stress: false)
        guard case .failed = result.status else {
            Issue.record("expected \(clause.id) to fail, but it was \(result.status)")
            return ""
        }
        // Every case fails the same way; the first one's message is checked word for word.
        let first = try #require(result.caseResults.first { $0.name == "registered while pending" })
        return try #require(first.message)
    }

    /// Handlers that each ran once, out of order: the calls around the first one out of place, with "…" where more
    /// come before or after.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func orderShowsWhereItBroke() async throws {
        #expect(
            try await Self.message(.swaps(2))
                == "round 1: thread 0's 100 handlers each ran once, but out of registration "
                + "order: 0, 1, 3, 2, …")
        #expect(
            try await Self.message(.swaps(50))
                == "round 1: thread 0's 100 handlers each ran once, but out of registration "
                + "order: …, 48, 49, 51, 50, …")
        #expect(
            try await Self.message(.swaps(98))
                == "round 1: thread 0's 100 handlers each ran once, but out of registration "
                + "order: …, 96, 97, 99, 98")
    }

    /// A handler that never ran and one that ran twice: the count, and each of them by number.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func countNamesEachHandlerThatRanOtherThanOnce() async throws {
        #expect(
            try await Self.message(.dropsAndRepeats(dropped: 5, repeated: 7))
                == "round 1: thread 0's handlers ran 100 times for 100: handler 5 never, "
                + "handler 7 twice")
    }

    /// A handler that never runs: the clause waits for it until its time limit, then says which one it was.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func lostHandlerIsNamedWhenTheWaitTimesOut() async throws {
        let message = try await Self.message(.drops(5), timeout: .seconds(5 * TestEnvironment.limitScale))
        #expect(
            message
                == "round 1: timed out waiting for 400 handlers to run; thread 0's handlers "
                + "ran 99 times for 100: handler 5 never")
    }
}

/// A promise that gets the handlers of every registering thread wrong in one set way. A thread's handlers are numbered
/// from 0 in the order it registers them on the promise.
///
/// It only does what `swift.concurrentRegistration` needs: `then` with a queue, and fulfilment.
final class Misregistering: @unchecked Sendable {
    /// What the promise gets wrong, the same on every thread.
    enum Fault: Sendable, CustomStringConvertible {
        /// Handler `n + 1` runs before handler `n`.
        case swaps(Int)
        /// Handler `dropped` never runs, handler `repeated` runs twice.
        case dropsAndRepeats(dropped: Int, repeated: Int)
        /// Handler `n` never runs.
        case drops(Int)

        /// What it gets wrong, in a few words.
        var description: String {
            switch self {
            case .swaps(let n): "swaps \(n) and \(n + 1)"
            case .dropsAndRepeats(let dropped, let repeated): "drops \(dropped), repeats \(repeated)"
            case .drops(let n): "drops \(n)"
            }
        }
    }

    /// A registered handler: its queue, the thread that registered it, and what it runs.
    private struct Handler {
        let queue: DispatchQueue
        let thread: ObjectIdentifier
        let run: @Sendable (Sentinel) -> Void
    }

    /// What the promise gets wrong.
    private let fault: Fault
    /// Guards `value`, `handlers` and `registered`.
    private let lock = NSLock()
    /// The value, once fulfilled.
    private var value: Sentinel?
    /// The handlers to run when it is fulfilled, in the order it will run them.
    private var handlers: [Handler] = []
    /// How many handlers each thread has registered on this promise.
    private var registered: [ObjectIdentifier: Int] = [:]

    /// A pending promise with `fault`.
    init(_ fault: Fault) {
        self.fault = fault
    }

    /// Registers `run`, to run on `queue` (the global queue when nil) with the value: at once when fulfilled, else
    /// when it is, with the fault applied to the registering thread's handlers.
    func then(on queue: DispatchQueue?, _ run: @escaping @Sendable (Sentinel) -> Void) {
        let queue = queue ?? .global()
        lock.lock()
        defer { lock.unlock() }
        if let value {
            queue.async { run(value) }
            return
        }
        let thread = ObjectIdentifier(Thread.current)
        let index = registered[thread, default: 0]
        registered[thread] = index + 1
        let handler = Handler(queue: queue, thread: thread, run: run)
        switch fault {
        case .swaps(let n) where index == n + 1:
            // Before this thread's latest handler, handler n.
            handlers.insert(handler, at: handlers.lastIndex { $0.thread == thread } ?? handlers.endIndex)
        case .dropsAndRepeats(let dropped, _) where index == dropped, .drops(let dropped) where index == dropped:
            break
        case .dropsAndRepeats(_, let repeated) where index == repeated:
            handlers += [handler, handler]
        default:
            handlers.append(handler)
        }
    }

    /// Fulfils the promise once, and sends each registered handler to its queue, in the list's order.
    func fulfill(_ value: Sentinel) {
        lock.lock()
        guard self.value == nil else { return lock.unlock() }
        self.value = value
        let handlers = handlers
        self.handlers = []
        lock.unlock()
        for handler in handlers { handler.queue.async { handler.run(value) } }
    }
}

/// Plugs a ``Misregistering`` promise into the suite, for `swift.concurrentRegistration` only (which fulfils its
/// promises and never rejects them).
struct MisregisteringAdapter: PromiseAdapter {
    /// What each promise it makes gets wrong.
    let fault: Misregistering.Fault

    /// `Misregistering(fault)`.
    var name: String { "Misregistering(\(fault))" }

    /// A pending promise with the fault; its reject does nothing (never called).
    func pending() -> (
        promise: Misregistering, fulfill: @Sendable (Sentinel) -> Void, reject: @Sendable (any Error) -> Void
    ) {
        let promise = Misregistering(fault)
        return (promise, { promise.fulfill($0) }, { _ in })  // never called
    }

    /// Registers onFulfilled on `promise`; returns a promise that stays pending.
    func then(
        _ promise: Misregistering, on queue: DispatchQueue?,
        onFulfilled: (@Sendable (Sentinel) -> HandlerResult<Misregistering>)?,
        onRejected: (@Sendable (any Error) -> HandlerResult<Misregistering>)?
    ) -> Misregistering {
        promise.then(on: queue) { value in _ = onFulfilled?(value) }
        return Misregistering(fault)  // the clause never looks at the derived promise
    }
}
