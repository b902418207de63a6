/// What the `then` calls of a clause that runs again through each entry point give (``Clause/routed(_:)``): the
/// handlers, what those return, and whether they pass on the outcome they got unchanged. A call fits an
/// ``EntryPoint`` as ``ErasedEntryPoint/fits(_:_:same:queue:)`` says.
struct RoutedCalls: Sendable {
    let handlers: HandlerKinds
    let results: ResultKinds
    let same: Bool
}

/// The name of a top-level case run through an entry point, "via NAME: case": the routed `then` clauses and the
/// deep-chain clauses name their cases so, and a deviation declared for the case covers them
/// (``Deviation/routedReason(_:in:)``).
enum RoutedCaseName {
    /// `caseName` run through the entry point named `entryName`.
    static func of(_ caseName: String, via entryName: String) -> String {
        "via \(entryName): \(caseName)"
    }

    /// Whether `name` is `caseName` run through some entry point.
    static func isRouted(_ name: String, from caseName: String) -> Bool {
        name.hasPrefix("via ") && name.hasSuffix(": \(caseName)")
    }
}

extension Clause {
    /// This clause, whose body then runs again through each of the adapter's entry points that some of `calls` fit
    /// (those that give the handlers it takes), each time with its top-level cases named "via NAME: case"
    /// (``RoutedCaseName``): every `then` call of the body whose handlers fit goes through the entry point (a call
    /// without a queue gets a global one when the entry point takes a queue), and the others through the adapter's
    /// `then`.
    func routed(_ calls: RoutedCalls) -> Clause {
        let body = body
        return Clause(
            id, title, statement, requires: requires, waitsForAbsence: waitsForAbsence, cases: cases
        ) { context in
            try body(context)
            for entry in context.adapter.entryPoints
            where entry.fits(
                entry.handlers.intersection(calls.handlers), calls.results, same: calls.same, queue: entry.takesQueue)
            {
                try context.routing(through: entry, calls) { try body(context) }
            }
        }
    }
}
