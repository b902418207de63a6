// The compiler's proof of the trait CheckedHandlers (docs/guide.md, "Swift 6 with checked handlers"). Every file in
// Snippets/ is a small client of the styles, type-checked here by `swiftc` against the modules this test run was built
// with, in the Swift 6 language mode:
//
// - With the trait on, under the compiler's own `-verify`: each hazard must produce exactly the error and note written
//   beside it (`expected-error {{…}}`, `expected-note {{…}}`), and nothing else; each correct form must produce no
//   diagnostic at all, warnings included. A hazard that compiles fails the check, as does any unexpected diagnostic.
// - With the trait off: every snippet, hazards included, type-checks with no diagnostic, as code written for the
//   originals does (the trait is what turns the hazards into errors).

import Dispatch
import Foundation
import TestSupport
import Testing

/// A snippet of Snippets/: its name, and whether it is a hazard (it states the errors it must produce).
struct Snippet: CustomStringConvertible, Sendable {
    let url: URL
    let isHazard: Bool

    var description: String { url.deletingPathExtension().lastPathComponent }

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snippets")

    static let all: [Snippet] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".swift") }.sorted().map { name in
            let url = folder.appendingPathComponent(name)
            let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
            return Snippet(url: url, isHazard: text.contains("expected-error"))
        }
    }()
}

/// The folder of the modules this test run was built with (`Modules`, next to the test bundle).
private var modulesFolder: URL {
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("Modules")
}

/// The module map SwiftPM writes for the C target DarwinStandIns, which the styles import when that trait is on too.
private var standInsModuleMap: URL {
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("DarwinStandIns.build/module.modulemap")
}

/// Type-checks `snippet` against this build's modules; with `verify`, under `-verify`. Returns the exit status and
/// everything the compiler printed.
private func typeCheck(_ snippet: Snippet, verify: Bool) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments =
        ["swiftc", "-swift-version", "6", "-typecheck", "-I", modulesFolder.path, snippet.url.path]
        + (verify ? ["-Xfrontend", "-verify"] : [])
        + (FileManager.default.fileExists(atPath: standInsModuleMap.path)
            ? ["-Xcc", "-fmodule-map-file=\(standInsModuleMap.path)"] : [])
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, output)
}

@Suite struct CheckedHandlerSnippetTests {
    /// The snippets cover what the guide's table says: for each style, every executor or queue where a handler runs
    /// off the main actor, a non-`Sendable` capture shared with the caller, and the correct forms.
    @Test func theSnippetsAreTheGuidesHazardsAndCorrectForms() {
        let hazards = Snippet.all.filter(\.isHazard).map(\.description)
        #expect(
            hazards == [
                "BoltsDefault", "BoltsImmediate", "BoltsQueue", "BoltsSharedCounter", "FBLDefault", "FBLQueue",
                "FBLSharedCounter", "PromiseKitDefault", "PromiseKitInline", "PromiseKitQueue",
                "PromiseKitSharedCounter",
            ])
        let correct = Snippet.all.filter { !$0.isHazard }.map(\.description)
        #expect(
            correct == [
                "BoltsMainThread", "BridgeAsync", "FBLMainQueue", "OverloadOrder", "PromiseKitMainQueue",
                "SendableValues",
            ])
    }

    #if CheckedHandlers
        /// With the trait on, at run time: a handler given to `.mainThread` or `on: .main` as main-actor code runs on
        /// the main queue, in each style (checked in a process that serves the main queue, which a test cannot).
        @Test(.offThePool) func theMainActorFormsRunOnTheMainQueue() throws {
            let fixture = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
                .appendingPathComponent("checked-handlers-fixture")
            let run = try ChildRun(fixture)
            let output = run.output
            #expect(run.exitedInTime, "the fixture did not exit")
            #expect(run.status == 0, "\(output)")
            #expect(
                output.split(separator: "\n") == [
                    "BoltsStyle A on the main queue: true", "PromiseKitStyle B on the main queue: true",
                    "FBLStyle C on the main queue: true",
                ])
        }

        /// With the trait on: each hazard fails with exactly its stated diagnostics; each correct form has none.
        @Test(arguments: Snippet.all)
        func typeChecksAsItsAnnotationsSay(_ snippet: Snippet) throws {
            let (status, output) = try typeCheck(snippet, verify: true)
            #expect(status == 0, "\(snippet) did not type-check as its annotations say:\n\(output)")
        }
    #else
        /// With the trait off: every snippet, hazards included, compiles with no diagnostic, as for the originals.
        @Test(arguments: Snippet.all)
        func compilesWithoutDiagnostics(_ snippet: Snippet) throws {
            let (status, output) = try typeCheck(snippet, verify: false)
            #expect(status == 0 && output.isEmpty, "\(snippet):\n\(output)")
        }
    #endif
}
