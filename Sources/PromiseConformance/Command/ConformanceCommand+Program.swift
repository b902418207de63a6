// ConformanceCommand+Program.swift: `--program`, one program run on each implementation and judged.
import Dispatch

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension ConformanceCommand {
    /// Runs the program `text` on each of `adapters` as ``Conformance/replay(_:on:timeout:)`` does, in this process,
    /// and prints for each what the model requires that the implementation did not do (or that it conforms). Exit
    /// status 0 when every implementation did what the model requires or departed only from rules its adapter
    /// declares, 1 otherwise, 2 for a program that does not parse.
    static func replay(
        _ text: String, on adapters: [any PromiseAdapter], output: @Sendable (String) -> Void,
        errorOutput: @Sendable (String) -> Void, commandName: String
    ) async -> Int32 {
        let program: Program
        do {
            program = try Program(parsing: text)
        } catch {
            errorOutput("\(commandName): --program: \(error)")
            return 2
        }
        var conforming = true
        output("program (\(program.size) steps): \(program)")
        for adapter in adapters {
            let verdict = Conformance.verdict(of: program, on: adapter)
            conforming = conforming && verdict.conforms
            output(verdict.description)
        }
        return conforming ? 0 : 1
    }
}
