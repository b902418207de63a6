// How many programs of the default run catch each subtle flaw: the margin behind "caught in every default run".
// A measurement, run by hand (PROMISES_FLAW_MARGINS=1 swift test --filter FlawMarginMeasurement); Benchmarks/NOTES.md
// keeps what it printed.
import Dispatch
import FlawedPromises
import Foundation
import Testing

@testable import PromiseConformance

@Suite(.offThePool) struct FlawMarginMeasurement {
    static let enabled = ProcessInfo.processInfo.environment["PROMISES_FLAW_MARGINS"] == "1"

    /// Runs every program of the default run (each generated clause's) once on the reference with `flaw`, and prints
    /// how many break a rule, per family, up to `cap` per family.
    @Test(.enabled(if: enabled), arguments: SubtleFlaw.allCases)
    func margin(_ flaw: SubtleFlaw) {
        let adapter = ErasedAdapter(ReferenceAdapter(flaw: flaw))
        let cap = 10
        var counts: [String] = []
        for family in ProgramGenerator.Family.allCases {
            let generator = ProgramGenerator(family: family, capabilities: .everything)
            var failing = 0
            for index in 1...GeneratedPrograms.defaultCount where failing < cap {
                let program = generator.program(seed: GeneratedPrograms.defaultSeed, index: index)
                let judgement = ProgramTrial.judge(program, on: adapter, stallLimit: 0.5, deadline: .now() + 30)
                if !judgement.undeclared.isEmpty { failing += 1 }
            }
            counts.append("\(family.rawValue) \(failing == cap ? "\(cap)+" : "\(failing)")")
        }
        print("MARGIN \(flaw.rawValue): \(counts.joined(separator: ", "))")
    }
}
