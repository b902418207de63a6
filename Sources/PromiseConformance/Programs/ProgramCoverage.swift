// ProgramCoverage.swift: how often each kind of step occurs in a run's generated programs.

/// The generator's coverage table: for an adapter's capabilities and a run's programs, how many times each kind of
/// step (and each shape: a long chain, a wide fan-out, a deep thenable, a repeated input), and each relation between
/// steps (``ProgramRelations``), occurs across every generated clause's programs.
struct ProgramCoverage: Sendable {
    /// The kinds, in the order the table lists them.
    static let kinds = [
        "pending", "cancellable", "fulfilled", "rejected", "thenable", "then", "then from a handler", "fulfil",
        "reject", "cancel", "settle from a handler", "all", "race", "any", "combinator of no input",
        "combinator with a repeated input", "returns a value", "throws", "adopts a promise", "adopts itself",
        "returns a thenable", "handler _", "on a serial queue", "on no queue", "thenable 4+ deep", "chain of 5+ links",
        "5+ handlers on one promise",
    ]

    /// Kind → how many times it occurs.
    let counts: [String: Int]
    /// Relation between steps (``ProgramRelations/kinds``) → how many times it occurs.
    let relations: [String: Int]

    init(capabilities: Capabilities, programs: GeneratedPrograms) {
        var counts: [String: Int] = [:]
        var relations: [String: Int] = [:]
        for family in ProgramGenerator.Family.allCases {
            if family == .cancellation && !capabilities.contains(.cancellation) { continue }
            if family == .combinators && capabilities.intersection([.all, .race, .any]).isEmpty { continue }
            let generator = ProgramGenerator(family: family, capabilities: capabilities)
            for index in 1...max(programs.count, 1) where programs.count > 0 {
                let program = generator.program(seed: programs.seed, index: index)
                Self.count(program, into: &counts)
                ProgramRelations.count(program, into: &relations)
            }
        }
        self.counts = counts
        self.relations = relations
    }

    private static func count(_ program: Program, into counts: inout [String: Int]) {
        var depth: [Int: Int] = [:]
        var handlers: [Int: Int] = [:]
        func add(_ kind: String) { counts[kind, default: 0] += 1 }
        func spec(_ spec: Program.ThenableSpec) { if spec.depth >= 4 { add("thenable 4+ deep") } }
        func visit(_ step: Program.Step, nested: Bool) {
            switch step {
            case .fulfil, .reject, .cancel:
                add(nested ? "settle from a handler" : step.kind)
            case .make(let node, let make):
                switch make {
                case .then(let source, let queue, let onFulfilled, let onRejected):
                    add(nested ? "then from a handler" : "then")
                    add(queue == nil ? "on no queue" : "on a serial queue")
                    depth[node] = (depth[source] ?? 0) + 1
                    if depth[node] == 5 { add("chain of 5+ links") }
                    handlers[source, default: 0] += 1
                    if handlers[source] == 5 { add("5+ handlers on one promise") }
                    for reaction in [onFulfilled, onRejected] {
                        guard let reaction else {
                            add("handler _")
                            continue
                        }
                        switch reaction.result {
                        case .value: add("returns a value")
                        case .throwing: add("throws")
                        case .adopt: add("adopts a promise")
                        case .adoptSelf: add("adopts itself")
                        case .thenable(let thenable):
                            add("returns a thenable")
                            spec(thenable)
                        }
                        for effect in reaction.effects { visit(effect, nested: true) }
                    }
                case .all(let inputs), .race(let inputs), .any(let inputs):
                    add(make.kind)
                    if inputs.isEmpty { add("combinator of no input") }
                    if Set(inputs).count < inputs.count { add("combinator with a repeated input") }
                case .thenable(let thenable):
                    add("thenable")
                    spec(thenable)
                default:
                    add(make.kind)
                }
            }
        }
        for step in program.steps { visit(step, nested: false) }
    }

    /// The table, one kind a line, then one relation between steps a line (``ProgramRelations``), for the adapter
    /// named `name`; kinds and relations its capabilities rule out, or the programs never reach, read "-".
    func table(for name: String) -> String {
        let width = (Self.kinds + ProgramRelations.kinds).map(\.count).max() ?? 0
        func line(_ name: String, _ count: Int?) -> String {
            name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + (count.map(String.init) ?? "-")
        }
        return
            (["generated programs for \(name): kind of step, and how many times it occurs"]
            + Self.kinds.map { line($0, counts[$0]) } + ["", "relation between steps, and how many times it occurs"]
            + ProgramRelations.kinds.map { line($0, relations[$0]) })
            .joined(separator: "\n")
    }
}

extension Program.Step {
    /// The step's kind, as the coverage table names it.
    var kind: String {
        switch self {
        case .make(_, let make): make.kind
        case .fulfil: "fulfil"
        case .reject: "reject"
        case .cancel: "cancel"
        }
    }
}

extension Program.Make {
    /// The kind of promise made, as the coverage table names it.
    var kind: String {
        switch self {
        case .pending: "pending"
        case .cancellable: "cancellable"
        case .fulfilled: "fulfilled"
        case .rejected: "rejected"
        case .thenable: "thenable"
        case .then: "then"
        case .all: "all"
        case .race: "race"
        case .any: "any"
        }
    }
}
