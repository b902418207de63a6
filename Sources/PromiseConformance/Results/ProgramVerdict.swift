/// What a replay of one generated program showed (``Conformance/replay(_:on:timeout:)``): each rule of Promises/A+
/// (or of the suite's Swift clauses) the implementation broke, and each departure its adapter declares.
public struct ProgramVerdict: Sendable, CustomStringConvertible {
    /// The program, as the report prints it.
    public let program: String
    /// The adapter's name.
    public let adapterName: String
    /// The rules broken that the adapter does not declare, each as `RULE: what the model requires; what the promise
    /// did`.
    public let broken: [String]
    /// The rules broken that the adapter declares a departure from, in the same form.
    public let departures: [String]

    /// Whether the implementation did what the model requires, or departed only from rules its adapter declares.
    public var conforms: Bool { broken.isEmpty }

    init(program: Program, adapterName: String, undeclared: [Violation], declared: [Violation]) {
        self.program = program.description
        self.adapterName = adapterName
        self.broken = undeclared.map(\.description)
        self.departures = declared.map(\.description)
    }

    /// `NAME: does what the model requires`, or `NAME:` and one line per rule broken (`  breaks …`) and per declared
    /// departure (`  departs as declared: …`).
    public var description: String {
        let lines = broken.map { "  breaks \($0)" } + departures.map { "  departs as declared: \($0)" }
        return "\(adapterName): "
            + (lines.isEmpty ? "does what the model requires" : "\n" + lines.joined(separator: "\n"))
    }
}
