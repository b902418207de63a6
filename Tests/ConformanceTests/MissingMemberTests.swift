import Dispatch
import FlawedPromises
import PromiseConformance
import TestSupport
import Testing

/// An adapter over ``ReferencePromise`` that implements only what every adapter must (`pending`, `then`): the
/// adapters below add to it some capabilities' members, or none.
protocol ReferenceCore: PromiseAdapter where Promise == ReferencePromise<Sentinel> {}

extension ReferenceCore {
    func pending() -> (
        promise: ReferencePromise<Sentinel>, fulfill: @Sendable (Sentinel) -> Void,
        reject: @Sendable (any Error) -> Void
    ) {
        ReferenceAdapter().pending()
    }

    func then(
        _ promise: ReferencePromise<Sentinel>, on queue: DispatchQueue?,
        onFulfilled: (@Sendable (Sentinel) -> HandlerResult<ReferencePromise<Sentinel>>)?,
        onRejected: (@Sendable (any Error) -> HandlerResult<ReferencePromise<Sentinel>>)?
    ) -> ReferencePromise<Sentinel> {
        ReferenceAdapter().then(promise, on: queue, onFulfilled: onFulfilled, onRejected: onRejected)
    }
}

/// Declares every capability and implements none of their members: the protocol's defaults answer for all six.
struct NoCapabilityMembersAdapter: ReferenceCore {
    var name: String { "NoCapabilityMembers" }
    var capabilities: Capabilities { .everything }
}

/// Declares cancellation and implements `cancellablePending()` but not `isCancellation(_:)`.
struct NoIsCancellationAdapter: ReferenceCore {
    var name: String { "NoIsCancellation" }
    var capabilities: Capabilities { .cancellation }

    func cancellablePending() -> (
        promise: ReferencePromise<Sentinel>, fulfill: @Sendable (Sentinel) -> Void, cancel: @Sendable () -> Void
    ) {
        ReferenceAdapter().cancellablePending()
    }
}

/// Declares cancellation and implements `isCancellation(_:)` but not `cancellablePending()`.
struct NoCancellablePendingAdapter: ReferenceCore {
    var name: String { "NoCancellablePending" }
    var capabilities: Capabilities { .cancellation }

    func isCancellation(_ error: any Error) -> Bool { ReferenceAdapter().isCancellation(error) }
}

/// Declares `race` without implementing it, and a deviation from the clause that needs it.
struct DeviatingWithoutRaceAdapter: ReferenceCore {
    var name: String { "DeviatingWithoutRace" }
    var capabilities: Capabilities { .race }
    var deviations: [String: String] { ["swift.combinator.race": "by design"] }
}

/// A capability declared without its member compiles (the protocol has a default for it); the suite then fails that
/// capability's clauses with a message naming the member, without running them, and the program goes on.
@Suite struct MissingMembers {
    /// Each clause that needs a capability, and the message its failure must hold.
    static let expectedMessages: [Capabilities: String] = [
        .assimilation: "declares .assimilation but does not implement `assimilated(_:)`",
        .all: "declares .all but does not implement `all(_:completion:)`",
        .race: "declares .race but does not implement `race(_:)`",
        .any: "declares .any but does not implement `any(_:)`",
        .cancellation: "declares .cancellation but does not implement `cancellablePending()` nor `isCancellation(_:)`",
    ]

    static let capabilityClauses = Clause.all.filter { !$0.requires.isEmpty }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test(arguments: capabilityClauses)
    func everyCapabilityClauseNamesTheMissingMember(_ clause: Clause) async throws {
        let result = await Conformance.run(
            NoCapabilityMembersAdapter(), clause: clause, timeout: TestEnvironment.clauseTimeout)
        let expected = try #require(Self.expectedMessages[clause.requires])
        #expect(result.status.isFailure, "\(result)")
        #expect(result.status.message?.contains(expected) == true, "\(result)")
        #expect(result.casesRun.isEmpty, "the clause ran \(result.casesRun) although a member is missing")
        #expect(result.graceWaits == 0)
    }

    /// Every capability with members has a clause here, so each member's default is seen to answer.
    @Test func everyCapabilityIsCovered() {
        #expect(Set(Self.capabilityClauses.map(\.requires)) == Set(Self.expectedMessages.keys))
        #expect(Self.expectedMessages.keys.reduce(Capabilities()) { $0.union($1) } == .everything)
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func eachHalfOfCancellationIsNamedAlone() async throws {
        let cancel = try #require(Clause.named("swift.cancel"))
        let withoutIsCancellation = await Conformance.run(NoIsCancellationAdapter(), clause: cancel)
        #expect(
            withoutIsCancellation.status.message
                == "the adapter declares .cancellation but does not implement `isCancellation(_:)` (the protocol's "
                + "default answered instead): implement it, or remove .cancellation from `capabilities`")
        let withoutCancellablePending = await Conformance.run(NoCancellablePendingAdapter(), clause: cancel)
        #expect(withoutCancellablePending.status.isFailure)
        #expect(
            withoutCancellablePending.status.message?.contains(
                "declares .cancellation but does not implement `cancellablePending()` (") == true,
            "\(withoutCancellablePending)")
    }

    /// A missing member is the adapter's error, not a departure by design: declaring the clause a deviation does not
    /// turn the failure into one.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func aDeclaredDeviationDoesNotHideIt() async throws {
        let clause = try #require(Clause.named("swift.combinator.race"))
        let result = await Conformance.run(DeviatingWithoutRaceAdapter(), clause: clause)
        #expect(result.status.isFailure, "\(result)")
        #expect(result.status.message?.contains("does not implement `race(_:)`") == true, "\(result)")
    }

    /// Called directly, outside the suite, a default answers as a failure naming the member instead of stopping the
    /// program: a promise rejected with that error, `all`'s completion with it, `isCancellation` false.
    @Test func theDefaultsAnswerWithAnErrorNamingTheMember() throws {
        let adapter = NoCapabilityMembersAdapter()
        func rejection(_ promise: ReferencePromise<Sentinel>) -> String {
            let seen = Locked<String?>(nil)
            let done = DispatchSemaphore(value: 0)
            _ = adapter.then(
                promise, on: nil,
                onFulfilled: { value in
                    seen.withLock { $0 = "fulfilled with \(value)" }
                    done.signal()
                    return .fulfill(value)
                },
                onRejected: { error in
                    seen.withLock { $0 = "\(error)" }
                    done.signal()
                    return .reject(error)
                })
            _ = done.wait(timeout: .now() + TestEnvironment.hangGuard)
            return seen.withLock { $0 } ?? "still pending"
        }
        let prefix = "NoCapabilityMembers does not implement "
        #expect(rejection(adapter.race([])) == prefix + "`race(_:)` (the protocol's default answered)")
        #expect(rejection(adapter.any([])) == prefix + "`any(_:)` (the protocol's default answered)")
        #expect(rejection(adapter.assimilated(ImmediateThenable())).hasPrefix(prefix + "`assimilated(_:)`"))
        #expect(rejection(adapter.cancellablePending().promise).hasPrefix(prefix + "`cancellablePending()`"))
        #expect(!adapter.isCancellation(CancellationError()))
        let completion = Locked<String?>(nil)
        adapter.all([]) { result in completion.withLock { $0 = "\(result)" } }
        #expect(completion.withLock { $0 }?.contains(prefix + "`all(_:completion:)`") == true)
    }
}

/// A thenable that fulfils at once.
private struct ImmediateThenable: Thenable {
    func then(
        _ resolvePromise: @escaping @Sendable (ThenableValue) -> Void,
        _ rejectPromise: @escaping @Sendable (any Error) -> Void
    ) throws {
        resolvePromise(.value(Sentinel(1)))
    }
}
