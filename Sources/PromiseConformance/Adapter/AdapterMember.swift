/// A member of ``PromiseAdapter`` that goes with a capability (`race(_:)` with ``Capabilities/race``), and how the
/// suite finds one that an adapter declares but does not implement.
///
/// The protocol gives each such member a default, so that an adapter implements only what it declares; a declaration
/// without the member therefore compiles. The default never stops the program: it tells the ``MemberProbe`` in effect,
/// if any, that it answered, and answers as a failure would (a promise rejected with a ``MissingMemberError``, `all`'s
/// completion called with one, `isCancellation` false). Before a clause that needs capabilities runs, the suite calls
/// each of their members once, on the clause's thread, under a probe (``missing(in:for:)``): a member whose default
/// answered is missing, and the clause fails with a message naming it instead of running. The probe calls are ones the
/// clauses make anyway (an already-fulfilled input, a thenable that fulfils at once, a cancellable promise fulfilled at
/// once, a plain error), so an implemented member costs one settled promise.
struct AdapterMember: Sendable {
    /// The capability the member goes with.
    let capability: Capabilities
    /// The member as a message names it: `race(_:)`.
    let signature: String
    /// Calls the member once, with inputs the clauses use anyway.
    let probe: @Sendable (ErasedAdapter) -> Void

    static let assimilated = AdapterMember(capability: .assimilation, signature: "assimilated(_:)") {
        _ = $0.assimilated(FulfillingThenable())
    }
    static let all = AdapterMember(capability: .all, signature: "all(_:completion:)") {
        $0.all([$0.fulfilled(Sentinel(0))]) { _ in }
    }
    static let race = AdapterMember(capability: .race, signature: "race(_:)") {
        _ = $0.race([$0.fulfilled(Sentinel(0))])
    }
    static let any = AdapterMember(capability: .any, signature: "any(_:)") {
        _ = $0.any([$0.fulfilled(Sentinel(0))])
    }
    static let cancellablePending = AdapterMember(capability: .cancellation, signature: "cancellablePending()") {
        $0.cancellablePending().fulfill(Sentinel(0))
    }
    static let isCancellation = AdapterMember(capability: .cancellation, signature: "isCancellation(_:)") {
        _ = $0.isCancellation(SentinelError(0))
    }

    /// Every member that goes with a capability, in the order of ``Capabilities/everything``.
    static let everyMember: [AdapterMember] = [assimilated, all, race, any, cancellablePending, isCancellation]

    /// Called by the member's default: tells the probe in effect that the default answered, and returns the error the
    /// default answers with.
    func defaultAnswered(in adapterName: String) -> MissingMemberError {
        MemberProbe.current?.markAnswered()
        return MissingMemberError(adapterName: adapterName, member: self)
    }

    /// The members of `capabilities` that `adapter` leaves to the protocol's defaults, each found by calling it once
    /// under a probe of its own.
    static func missing(in adapter: ErasedAdapter, for capabilities: Capabilities) -> [AdapterMember] {
        everyMember.filter { member in
            guard capabilities.contains(member.capability) else { return false }
            let probe = MemberProbe()
            MemberProbe.$current.withValue(probe) { member.probe(adapter) }
            return probe.answeredByDefault
        }
    }

    /// The failure of a clause whose capabilities `missing` lacks members, e.g. "the adapter declares .race but does
    /// not implement `race(_:)` ...".
    static func failureMessage(_ missing: [AdapterMember]) -> String {
        Capabilities.names.compactMap { capability, name in
            let members = missing.filter { $0.capability == capability }.map { "`\($0.signature)`" }
            guard !members.isEmpty else { return nil }
            return "the adapter declares .\(name) but does not implement \(members.joined(separator: " nor ")) "
                + "(the protocol's default answered instead): implement it, or remove .\(name) from `capabilities`"
        }
        .joined(separator: "; ")
    }
}

/// What a member's default answers with: a rejection that names the adapter and the member it lacks.
struct MissingMemberError: Error, CustomStringConvertible {
    let adapterName: String
    let member: AdapterMember

    var description: String {
        "\(adapterName) does not implement `\(member.signature)` (the protocol's default answered)"
    }
}

/// Records which member defaults answered while it was in effect (``AdapterMember/missing(in:for:)``).
final class MemberProbe: Sendable {
    /// The probe of the call in progress on this thread, if any.
    @TaskLocal static var current: MemberProbe?

    private let answered = Locked(false)

    func markAnswered() { answered.withLock { $0 = true } }

    /// Whether a default answered.
    var answeredByDefault: Bool { answered.withLock { $0 } }
}

/// A thenable that fulfils at once: what the probe of ``AdapterMember/assimilated`` hands to `assimilated(_:)`.
private struct FulfillingThenable: Thenable {
    func then(
        _ resolvePromise: @escaping @Sendable (ThenableValue) -> Void,
        _ rejectPromise: @escaping @Sendable (any Error) -> Void
    ) throws {
        resolvePromise(.value(Sentinel(0)))
    }
}
