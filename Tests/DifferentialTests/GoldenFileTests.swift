import BoltsTraces
import DifferentialCore
import FBLTraces
import Foundation
import PromiseKitTraces
import Testing

/// A golden file names what recorded it, and the replay refuses one that does not name the original.
@Suite struct GoldenFileTests {
    /// A file in a fresh temporary folder.
    private func temporaryFile(_ name: String = "golden.jsonl") throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("golden-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent(name)
    }

    private func trace(_ seed: UInt64, lanes: [String]) -> GoldenTrace {
        GoldenTrace(
            seed: seed, program: PKInterpreter.program(seed: seed), trace: ProgramTrace(steps: [lanes], final: []),
            unstable: [])
    }

    private func header(harness: Int = DifferentialHarness.version, origin: GoldenHeader.Origin = .original)
        -> GoldenHeader
    {
        let library = PKInterpreter.originalLibrary
        return GoldenHeader(
            library: library.name, version: library.version, repository: library.repository,
            commit: "2bc44395edb4f8391902a9ff7c220471882a4d07", recorded: "2026-11-26", harness: harness, origin: origin
        )
    }

    /// The header of `I`'s committed golden file, as the replay reads it (which refuses it if it does not name `I`'s
    /// original), with the original it must name.
    private func committedHeader<I: TraceInterpreter>(_: I.Type) throws -> (GoldenHeader, TracedLibrary, String) {
        let file = try GoldenFile.read(goldenFolder.appendingPathComponent(I.goldenFileName), of: I.self, first: 0)
        return (file.header, I.originalLibrary, I.goldenFileName)
    }

    @Test func everyCommittedGoldenFileNamesTheOriginalThatRecordedIt() throws {
        let files = try FileManager.default.contentsOfDirectory(at: goldenFolder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "jsonl" }
        #expect(files.count == 3)
        for (header, original, file) in [
            try committedHeader(PKInterpreter.self), try committedHeader(BoltsInterpreter.self),
            try committedHeader(FBLInterpreter.self),
        ] {
            #expect(header.origin == .original, "\(file)")
            #expect(header.library == original.name && header.version == original.version, "\(file)")
            #expect(header.repository == original.repository, "\(file)")
            #expect(header.commit.count == 40 && header.commit.allSatisfy(\.isHexDigit), "\(file)")
            #expect(header.recorded.wholeMatch(of: /\d{4}-\d{2}-\d{2}/) != nil, "\(file)")
            #expect((1...DifferentialHarness.version).contains(header.harness), "\(file)")
        }
    }

    @Test func aFileWithoutAHeaderIsRefused() throws {
        let url = try temporaryFile()
        let encoder = JSONEncoder()
        try Data(encoder.encode(trace(1, lanes: ["d h0()"])) + Data("\n".utf8)).write(to: url)
        #expect(throws: GoldenFile.Refusal.noHeader(file: "golden.jsonl")) {
            try GoldenFile.read(url, of: PKInterpreter.self)
        }
    }

    /// The `record` command run here, on our style, marks its file as the style's; the replay refuses it.
    @Test func aRecordingMadeOnOurStyleSaysSoAndIsRefused() throws {
        let recorded = GoldenHeader.recording(PKInterpreter.self, commit: "working tree")
        #expect(recorded.origin == .style)
        #expect(recorded.library == "PromiseKitStyle")
        #expect(recorded.harness == DifferentialHarness.version)
        let url = try temporaryFile()
        try GoldenFile(header: recorded, traces: [trace(1, lanes: ["d h0()"])]).write(to: url)
        #expect(throws: GoldenFile.Refusal.recordedOnStyle(file: "golden.jsonl", library: "PromiseKitStyle")) {
            try GoldenFile.read(url, of: PKInterpreter.self)
        }
    }

    @Test func aFileOfAnotherVersionIsRefused() throws {
        var other = header()
        other.version = "8.1.2"
        let url = try temporaryFile()
        try GoldenFile(header: other, traces: [trace(1, lanes: [])]).write(to: url)
        #expect(
            throws: GoldenFile.Refusal.otherLibrary(
                file: "golden.jsonl", recorded: "PromiseKit 8.1.2", expected: "PromiseKit 8.2.0")
        ) {
            try GoldenFile.read(url, of: PKInterpreter.self)
        }
    }

    /// Harness 1 put an event recorded inside a `sync` onto a library's queue in the other lane; harness 2 names the
    /// program's queue. A harness 1 file is read only if it has no event in the other lane.
    @Test func aFileOfHarness1IsReadOnlyWithoutAnEventInTheOtherLane() throws {
        let url = try temporaryFile()
        try GoldenFile(header: header(harness: 1), traces: [trace(1, lanes: ["d h0()", "q1 h1(2)"])]).write(to: url)
        let file = try GoldenFile.read(url, of: PKInterpreter.self)
        #expect(file.traces.count == 1 && file.header.harness == 1)

        try GoldenFile(header: header(harness: 1), traces: [trace(1, lanes: ["g h1(2)"])]).write(to: url)
        #expect(throws: GoldenFile.Refusal.otherHarness(file: "golden.jsonl", recorded: 1)) {
            try GoldenFile.read(url, of: PKInterpreter.self)
        }
    }

    @Test func aFileWritesAndReadsBackWithItsHeader() throws {
        let url = try temporaryFile()
        let traces = [trace(1, lanes: ["d h0()"]), trace(2, lanes: ["q2 h1(3)", "g h2()"])]
        try GoldenFile(header: header(), traces: traces).write(to: url)
        let file = try GoldenFile.read(url, of: PKInterpreter.self)
        #expect(file.header == header())
        #expect(file.traces == traces)
        #expect(try GoldenFile.count(url) == 2)
        #expect(try GoldenFile.read(url, of: PKInterpreter.self, first: 1).traces == [traces[0]])
    }
}
