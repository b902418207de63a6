/// How many `any Error` boxes wrap a rejection reason, counted without a cast.
///
/// Swift puts a value in a new existential box whenever it converts a value of a generic type `E: Error` to
/// `any Error`, even when `E` is `any Error` itself: the new box holds the old one. A library that stores or passes
/// its error this way once per link (a field typed `Swift.Error` inside a type generic over its error, say) hands the
/// end of a long chain its reason nested once per link. Reading it back still works, but every cast of it (`as?`,
/// `is`, a typed `catch`) walks the boxes recursively in the runtime (`swift_dynamicCast`), one frame per box, and so
/// does freeing it (each box releases the one it holds from its own destructor): either overflows the stack of the
/// thread that does it once the chain is a few thousand links long.
///
/// The deep-chain clauses count the boxes of the reason at a chain's end before they cast it
/// (``Expectations/castable(_:_:)``): a reason in more than ``limit`` boxes is reported as such, where the cast would
/// have crashed the clause, and the case ends at its chain of 250 links, whose reason is freed without harm. The other
/// clauses do not count: their chains are a few links long (the older `swift.deepChain`'s 20,000 links crash where a
/// library recurses, by design), and a library that boxes the reason again per link still hands them the right
/// reason, which is what they check.
enum ErrorBoxes {
    /// The most boxes a reason seen by a check may be in: a few conversions at the ends of a chain, far fewer than the
    /// 250 links of the shortest deep chain, which a library that wraps once per link nests 250 deep at least.
    static let limit = 8

    /// How many boxes of `any Error` hold another `any Error` on the way from `error` to its concrete value: 0 for a
    /// reason in one box, as `throw SentinelError(1)` makes it. Iterative, and with no cast: each step opens the box
    /// (the call opens the existential) and, when what it holds is an `any Error` itself, takes that out.
    static func count(_ error: any Error) -> Int {
        var count = 0
        var current = error
        while let inner = unboxed(current) {
            count += 1
            current = inner
        }
        return count
    }

    /// The `any Error` inside `error` when `error`'s own type is `any Error` (a box in a box), nil otherwise.
    private static func unboxed<Boxed: Error>(_ error: Boxed) -> (any Error)? {
        guard Boxed.self == (any Error).self else { return nil }
        // Boxed is any Error: the bit cast is the identity on a value of that type, and takes no runtime cast.
        return unsafeBitCast(error, to: (any Error).self)
    }

    /// Why `error` fails a check, or nil when it is in ``limit`` boxes or fewer.
    static func excess(_ error: any Error, in what: String) -> String? {
        let boxes = count(error)
        guard boxes > limit else { return nil }
        return "\(what) was rejected with a reason nested in \(StackGrowth.grouped(boxes)) boxes of `any Error` (more "
            + "than \(limit)): it was wrapped again on its way, in a new box that holds the old one, and every cast of "
            + "it (`as?`, `is`, a typed `catch`) and its release walk the boxes recursively, one runtime frame per box"
    }
}
