// ProgramReplay.swift: how a report tells its reader to run a failing program again, in the words of whoever ran the
// suite: the command they started, or the Swift call.

/// The line of a report that replays a program: `replay: NAME --style STYLE --program '…'` when a command ran the
/// suite (``ConformanceCommand`` under the name it was started by), and the Swift call
/// (``Conformance/replay(_:on:timeout:)``) when a test did (``Conformance/run(_:clauses:timeout:stress:grace:repetitions:programs:)``,
/// ``expectConformance(_:_:timeout:grace:sourceLocation:)`` and the isolated runs).
struct ProgramReplay: Sendable {
    /// Who ran the suite.
    enum Caller: Sendable, Equatable {
        /// A command, by the name it was started as: the package's `promise-conformance`, or one built over other
        /// adapters.
        case command(String)
        /// Swift code, through the module's API.
        case swift
    }

    var caller: Caller
    /// The adapter's ``PromiseAdapter/name``, which `--style` selects.
    let adapterName: String
    /// The adapter's Swift type, which the Swift call names.
    let adapterType: String

    /// How `caller` replays a program on the adapter named `adapterName`, of type `adapterType`.
    init(_ caller: Caller, adapterName: String, adapterType: String) {
        self.caller = caller
        self.adapterName = adapterName
        self.adapterType = adapterType
    }

    /// How `caller` replays a program on `adapter`.
    init(_ caller: Caller, for adapter: ErasedAdapter) {
        self.init(caller, adapterName: adapter.name, adapterType: adapter.typeName)
    }

    /// How `caller` replays a program on `adapter`.
    init<A: PromiseAdapter>(_ caller: Caller, for adapter: A) {
        self.init(caller, adapterName: adapter.name, adapterType: String(describing: A.self))
    }

    /// The replay line for `program`.
    func line(_ program: Program) -> String {
        switch caller {
        case .command(let name):
            "replay: \(name) --style \(Self.shellWord(adapterName)) --program '\(program)'"
        case .swift:
            "replay: print(try Conformance.replay(\"\(program)\", on: adapter)), with adapter the \(adapterType) "
                + "this run used"
        }
    }

    /// `word` as a shell reads it back as one word: as it is when it has only letters, digits, `.`, `_` and `-`, else
    /// in single quotes (an adapter's name may have parentheses or spaces).
    static func shellWord(_ word: String) -> String {
        if !word.isEmpty, word.allSatisfy({ $0.isLetter || $0.isNumber || "._-".contains($0) }) { return word }
        return "'" + word.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }
}
