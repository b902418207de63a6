import Dispatch
import Foundation

// The JavaScript suite's ways of settling a promise, each a case of the clause that asks for them.

extension ClauseContext {
    /// The names of ``eachWay(_:prefix:_:)``'s cases for a promise settled as `verb` (`fulfilled` or `rejected`),
    /// each after `prefix`, in the order it runs them: what a clause that calls it lists in its ``Clause/cases``.
    static func eachWayCases(_ verb: String, prefix: String = "") -> [String] {
        ["already-\(verb)", "immediately-\(verb)", "eventually-\(verb)", "\(verb)-from-another-thread"].map {
            prefix + $0
        }
    }

    /// Runs `body` once per way of settling a promise: already settled, settled immediately after `body` registered
    /// its handlers, settled later, and settled from another thread, each as a case named by
    /// ``eachWayCases(_:prefix:)``. `body` registers handlers on the promise and returns the checks to run after the
    /// promise was settled.
    func eachWay(
        _ settlement: Settlement, prefix: String = "", _ body: (ErasedPromise) throws -> () throws -> Void
    ) throws {
        try eachWay(settlement, prefix: prefix, copies: 1) { promises in try body(promises[0]) }
    }

    /// ``eachWay(_:prefix:_:)`` over `copies` promises in the same state at once, settled together (in order, by one
    /// thread): for a check that an implementation may fail only some of the time however it is driven, such as a
    /// `then` that registers its handler later, on another thread. Each copy is one more chance for the failure to
    /// show, and the case still waits once.
    func eachWay(
        _ settlement: Settlement, prefix: String = "", copies: Int,
        _ body: ([ErasedPromise]) throws -> () throws -> Void
    ) throws {
        let names = Self.eachWayCases(settlement.verb, prefix: prefix)
        try inCase(names[0]) {
            let check = try body((0..<copies).map { _ in settled(settlement) })
            try check()
        }
        try inCase(names[1]) {
            try settlingPending(copies, settlement, body) { settleAll in settleAll() }
        }
        try inCase(names[2]) {
            try settlingPending(copies, settlement, body) { settleAll in
                DispatchQueue.global().asyncAfter(deadline: .now() + clock.later, execute: settleAll)
            }
        }
        try inCase(names[3]) {
            try settlingPending(copies, settlement, body) { settleAll in Thread.detachNewThread(settleAll) }
        }
    }

    /// One of ``eachWay(_:prefix:copies:_:)``'s cases of pending promises: `body` registers its handlers on `copies`
    /// pending promises, `deliver` settles them all as `settlement` says (at once, later, or on another thread, by
    /// calling `settleAll` then or there), and then the checks `body` returned run.
    private func settlingPending(
        _ copies: Int, _ settlement: Settlement, _ body: ([ErasedPromise]) throws -> () throws -> Void,
        deliver: (_ settleAll: @escaping @Sendable () -> Void) -> Void
    ) throws {
        let pendings = (0..<copies).map { _ in pending() }
        let check = try body(pendings.map(\.promise))
        deliver { [self] in
            for pending in pendings { settle(pending, settlement) }
        }
        try check()
    }
}
