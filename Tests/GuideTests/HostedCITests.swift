// The hosted CI definition (.github/workflows/ci.yml) runs what the README says is run: it has never run here, so
// this test is what keeps it from drifting. `bash .ci/validate-workflows` checks it against GitHub's schema.

import Foundation
import Testing

/// The workflow's jobs and, for each, the commands of its `run` steps, one line each (a `run: |` block gives each of
/// its lines).
private func workflowJobs() throws -> [String: [String]] {
    let text = try String(
        contentsOf: packageRoot.appendingPathComponent(".github/workflows/ci.yml"), encoding: .utf8)
    var jobs: [String: [String]] = [:]
    var job: String?
    var inJobs = false
    var block: Int?  // the indentation of the `run: |` key whose lines are being read
    for line in text.components(separatedBy: "\n") {
        let indent = line.prefix { $0 == " " }.count
        let content = line.trimmingCharacters(in: .whitespaces)
        if let key = block {
            if content.isEmpty || indent > key {
                if !content.isEmpty, let job { jobs[job, default: []].append(content) }
                continue
            }
            block = nil
        }
        guard !content.isEmpty, !content.hasPrefix("#") else { continue }
        if indent == 0 { inJobs = content == "jobs:" }
        guard inJobs else { continue }
        if indent == 2, content.hasSuffix(":") {
            job = String(content.dropLast())
            jobs[job!] = []
        } else if let job, let range = content.range(of: "run: ") {
            let command = content[range.upperBound...]
            if command == "|" { block = indent } else { jobs[job, default: []].append(String(command)) }
        }
    }
    return jobs
}

/// The commands of the README's first code block (`swift run promise-conformance`, `swift test`, ...).
private func readmeCommands() throws -> [String] {
    let readme = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
    let block = readme.components(separatedBy: "```sh\n")[1].components(separatedBy: "```")[0]
    return block.split(separator: "\n").map {
        String($0.split(separator: "#", maxSplits: 1)[0]).trimmingCharacters(in: .whitespaces)
    }
}

@Suite struct HostedCITests {
    @Test func theJobsAreLinuxMacOSAndTheIOSSimulator() throws {
        #expect(Set(try workflowJobs().keys) == ["linux", "macos", "ios-simulator"])
    }

    /// The Linux job runs the whole check, as every change here passes it.
    @Test func theLinuxJobRunsTheWholeCheck() throws {
        #expect(try workflowJobs()["linux"]?.contains("bash .ci/run") == true)
        let readme = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("`bash .ci/run` is the whole check"))
    }

    /// The macOS job runs each command at the top of the README.
    @Test func theMacOSJobRunsTheREADMEsCommands() throws {
        let commands = try readmeCommands()
        #expect(commands.contains("swift test") && commands.contains("swift run promise-conformance"))
        let macOS = try workflowJobs()["macos"] ?? []
        for command in commands {
            #expect(macOS.contains(command), "the macOS job does not run `\(command)`")
        }
    }

    /// The iOS simulator job builds every library product but the conformance suite and its adapters, which run
    /// clauses in child processes through `Process` (not in iOS's Foundation).
    @Test func theIOSJobBuildsEveryLibraryProductButTheConformanceSuite() throws {
        let manifest = try String(contentsOf: packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        let products = Set(manifest.matches(of: /\.library\(name: "([A-Za-z]+)"/).map { String($0.1) })
        let loop = try workflowJobs()["ios-simulator"]?.first { $0.hasPrefix("for scheme in ") } ?? ""
        let list = loop.dropFirst("for scheme in ".count).split(separator: ";").first ?? ""
        let schemes = Set(list.split(separator: " ").map(String.init))
        #expect(!schemes.isEmpty)
        #expect(schemes.union(["PromiseConformance", "PromiseStyleAdapters"]) == products)
        #expect(schemes.isDisjoint(with: ["PromiseConformance", "PromiseStyleAdapters"]))
    }

    /// `.ci/run` checks the workflow against GitHub's schema.
    @Test func theWholeCheckValidatesTheWorkflow() throws {
        let run = try String(contentsOf: packageRoot.appendingPathComponent(".ci/run"), encoding: .utf8)
        #expect(run.contains("\nbash .ci/validate-workflows\n"))
    }
}
