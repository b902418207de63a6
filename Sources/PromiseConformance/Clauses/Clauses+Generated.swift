// Clauses+Generated.swift: the generated clauses, one per family of rules, each running seeded programs.

extension Clause {
    /// How many failing programs end a generated clause: 3. The first is shrunk; the clause's remaining programs are
    /// not run.
    static let generatedFailureLimit = 3

    /// The name of a generated clause's case that runs program `index`: `program N`.
    static func programCaseName(_ index: Int) -> String { "program \(index)" }

    /// The generated clauses with `programs`, one per ``ProgramGenerator/Family``.
    static func generatedClauses(_ programs: GeneratedPrograms) -> [Clause] {
        ProgramGenerator.Family.allCases.map { generated($0, programs) }
    }

    /// The generated clause of `family`: `programs.count` programs, each a top-level case `program N`.
    static func generated(_ family: ProgramGenerator.Family, _ programs: GeneratedPrograms) -> Clause {
        let (title, statement): (String, String) =
            switch family {
            case .then:
                (
                    "generated programs: then",
                    "Programs of pending and settled promises, chains and fan-out trees of `then` on serial queues "
                        + "and on none, handlers that register and settle from inside, do what Promises/A+ requires "
                        + "(2.1, 2.2), and free what they let go of."
                )
            case .resolution:
                (
                    "generated programs: resolution",
                    "Programs whose handlers return promises of the program (pending, settled, the promise itself) "
                        + "and thenables nested to any depth resolve as the resolution procedure requires (2.3)."
                )
            case .combinators:
                (
                    "generated programs: combinators",
                    "Programs of all, race and any over settled and pending inputs, repeated inputs and none, settled "
                        + "in any order across steps, give what each combinator promises."
                )
            case .cancellation:
                (
                    "generated programs: cancellation",
                    "Programs of cancellable promises, cancelled before or after handlers are registered, pass the "
                        + "cancellation along chains and to rejection handlers."
                )
            }
        var clause = Clause(
            family.clauseID, title, statement, requires: family == .cancellation ? .cancellation : [],
            waitsForAbsence: false, cases: (1...max(programs.count, 1)).map(programCaseName)
        ) { context in
            let generator = ProgramGenerator(family: family, capabilities: context.adapter.capabilities)
            var failures = 0
            // A clause that failed this many programs has shown what it can: its other programs are not run, which
            // spares an implementation that fails most of them a wait for each.
            for index in 1...max(programs.count, 1) where programs.count > 0 && failures < Self.generatedFailureLimit {
                try context.inCase(Self.programCaseName(index)) {
                    do {
                        try ProgramTrial.check(
                            generator.program(seed: programs.seed, index: index), index: index, programs: programs,
                            afterFailure: failures > 0, in: context)
                    } catch let failure as ClauseFailure {
                        failures += 1
                        throw failure
                    }
                }
            }
        }
        clause.programs = programs
        clause.family = family
        if family == .combinators { clause.requiresOneOf = [.all, .race, .any] }
        return clause
    }

    /// For a case of a generated clause that crashed or hung the process running it (`program N`), the program it
    /// ran, as text, and the line that replays it, each on a line of its own; nil for any other case. The shrinker
    /// runs in that process, so the program is the one generated, not shrunk.
    func crashedProgram(_ caseName: String, capabilities: Capabilities, replay: ProgramReplay) -> String? {
        guard let family, let programs,
            let index = stride(from: 1, through: programs.count, by: 1).first(where: {
                Self.programCaseName($0) == caseName
            })
        else { return nil }
        let program = ProgramGenerator(family: family, capabilities: capabilities).program(
            seed: programs.seed, index: index)
        return "  program \(index) of seed \(programs.seed) (\(program.size) steps, not shrunk): \(program)\n  "
            + replay.line(program)
    }
}
