/// The keys of ``PromiseAdapter/deviations``: a clause id (`2.3.1`) for the whole clause, a clause id, `#` and one
/// of its ``Clause/cases`` (`2.3.1#from onFulfilled`) for that case alone, or `generated#` and a clause id
/// (`generated#2.2.6.1`) for a departure from that rule that only the generated programs show.
enum Deviation {
    /// The separator between a clause id and a case name in a deviation key.
    static let separator: Character = "#"

    /// The first part of a key that declares a departure only the generated programs show: `generated#2.2.6.1`.
    static let generated = "generated"

    /// The clause id of a key, and its case name if it names one.
    static func split(_ key: String) -> (id: String, caseName: String?) {
        guard let index = key.firstIndex(of: separator) else { return (key, nil) }
        return (String(key[..<index]), String(key[key.index(after: index)...]))
    }

    /// The reason declared for `caseName` run through an entry point ("via NAME: case"): a case's deviation is the
    /// implementation's, so it holds for every form of `then` the case runs through. Nil for a case run directly.
    static func routedReason(_ caseName: String, in declared: [String: String]) -> String? {
        declared.first { RoutedCaseName.isRouted(caseName, from: $0.key) }?.value
    }

    /// The cases of `clause` that `deviations` declares one by one: case name → reason.
    static func cases(of clause: Clause, in deviations: [String: String]) -> [String: String] {
        cases(of: clause.id, in: deviations)
    }

    /// The cases of the clause with id `clauseID` that `deviations` declares one by one: case name → reason.
    static func cases(of clauseID: String, in deviations: [String: String]) -> [String: String] {
        var cases: [String: String] = [:]
        for (key, reason) in deviations {
            let (id, caseName) = split(key)
            if id == clauseID, let caseName { cases[caseName] = reason }
        }
        return cases
    }
}
