// The limits the documentation states (a depth, the spin limit, an inline count) are the constants in the code. Every
// statement of such a number in the documentation (README.md, CHANGELOG.md aside, docs/*.md, the DocC articles, and
// the Mermaid diagrams among them) is found by its wording, attributed to the limit its sentence names, and compared
// with that limit's constant, read from the sources. A statement that names no limit fails too, so that no number of
// this kind goes unchecked.

import Foundation
import Testing

/// A limit in the code that the documentation states.
private struct Limit: CustomStringConvertible {
    /// What the documentation calls it, for messages.
    let description: String
    /// The style's source folder, searched recursively.
    let module: String
    /// The constant: `static let <constant> = <value>`.
    let constant: String
    /// Words that, in the same sentence before a number, say the number is this limit (the nearest one wins).
    let subjects: [String]

    /// Whether it is a lock's spin limit rather than a depth.
    var isSpinLimit: Bool { constant == "spinLimit" }

    /// The constant's value, read from the sources; every declaration of it in the module must agree.
    func value() throws -> Int {
        let folder = packageRoot.appendingPathComponent("Sources/\(module)")
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        var values = Set<Int>()
        let declaration = try Regex(#"static let "# + constant + #"\s*=\s*([0-9]+)\b"#)
        while let url = enumerator?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            let text = try String(contentsOf: url, encoding: .utf8)
            for match in text.matches(of: declaration) {
                if let digits = match.output[1].substring, let value = Int(digits) { values.insert(value) }
            }
        }
        guard values.count == 1, let value = values.first else {
            throw DocumentedNumberError(message: "\(module): \(constant) is declared with \(values.sorted())")
        }
        return value
    }
}

private struct DocumentedNumberError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// The limits. Subjects are matched case-sensitively; the nearest one before the number, in its sentence, decides.
private let limits = [
    Limit(
        description: "BoltsStyle's .default depth", module: "BoltsStyle", constant: "defaultDepthLimit",
        subjects: ["`.default`", ".default", "defaultDepthLimit", "BFExecutor/default"]),
    Limit(
        description: "BoltsStyle's .immediate depth", module: "BoltsStyle", constant: "immediateDepthLimit",
        subjects: [
            "`.immediate`", ".immediate", "`.mainThread`", ".mainThread", "immediateDepthLimit", "BFTrampoline",
            "BFExecutor/immediate", "BFExecutor/mainThread",
        ]),
    Limit(
        description: "the shared lock's spin limit", module: "PromisePlumbing", constant: "spinLimit",
        subjects: ["Lock", "lock", "Barrier", "barrier", "Backoff"]),
    Limit(
        description: "PromiseKitStyle's inline depth", module: "PromiseKitStyle", constant: "inlineDepthLimit",
        subjects: ["`on: nil`", "HandlerTrampoline", "inlineDepthLimit", "PromiseKitStyle", "handler"]),
    Limit(
        description: "FBLStyle's inline depth", module: "FBLStyle", constant: "inlineDepthLimit",
        subjects: ["ObserverTrampoline", "library-internal observers", "internal observers"]),
]

/// Wordings that state a depth; group 1 is the number. A number with digits before or after it (`20,000`) is a count,
/// not a limit.
private var depthStatements: [Regex<AnyRegexOutput>] {
    [
        try! Regex(#"(?:^|[^\d,.])(\d{1,3})(?![\d,.])\s+(?:nested\s+)?(?:levels?|inline runs?)\b"#),
        try! Regex(#"(?:^|[^\d,.])(\d{1,3})(?![\d,.])\s+nested\s+(?:runs|continuations|`?\.default`? runs)\b"#),
        try! Regex(#"(?:^|[^\d,.])(\d{1,3})(?![\d,.])\s+deep\b"#),
        try! Regex(#"depth\s*<\s*(\d{1,3})\b"#),
    ]
}

/// Wordings that state a spin limit.
private var spinStatements: [Regex<AnyRegexOutput>] {
    [
        try! Regex(#"spins?\s+(?:up to\s+)?(\d{1,3})\s+(?:times|tries)\b"#),
        try! Regex(#"after\s+(\d{1,3})\s+tries\b"#),
    ]
}

@Suite struct DocumentedNumberTests {
    /// One statement: where, which number, and the sentence around it.
    struct Statement {
        let place: String
        let number: Int
        /// Its sentence (or table cell) before the number, and after it.
        let before: Substring
        var after: Substring = ""
        /// The sentence before; in a table, the cells of the row before this one.
        var previous: Substring = ""
        /// Whether the wording states a spin limit rather than a depth.
        let isSpin: Bool
    }

    /// Where a sentence or a table cell ends.
    static var boundary: Regex<Substring> { #/\. |\||\n\n|\n[-*] /# }

    /// Every statement of a limit in the documentation, with the text of its sentence before the number.
    static func statementsInDocumentation() throws -> [Statement] {
        var found: [Statement] = []
        for document in try Document.all() where !document.path.hasPrefix("CHANGELOG") {
            // The raw text: the Mermaid diagrams state limits too. Markdown links are read as their labels.
            let raw = try String(contentsOf: document.url, encoding: .utf8)
            let text = raw.replacing(/\[([^\]]*)\]\([^)]*\)/) { String($0.output.1) }
            for (regex, isSpin) in depthStatements.map({ ($0, false) }) + spinStatements.map({ ($0, true) }) {
                for match in text.matches(of: regex) {
                    guard let digits = match.output[1].substring, let number = Int(digits) else { continue }
                    // The sentence so far: back to a full stop followed by a space, a table cell's bar or a blank
                    // line, at most 400 characters.
                    let start =
                        text.index(match.range.lowerBound, offsetBy: -400, limitedBy: text.startIndex)
                        ?? text.startIndex
                    var before = text[start..<match.range.lowerBound]
                    var previous: Substring = ""
                    let stops = before.ranges(of: boundary)
                    if let stop = stops.last {
                        if before[stop] != "|" {
                            let from = stops.dropLast().last?.upperBound ?? before.startIndex
                            previous = before[from..<stop.lowerBound]
                        } else {
                            // A table cell: the row's cells before it (its first names the subject of the row).
                            let rowStart = before[..<stop.lowerBound].lastIndex(of: "\n").map(before.index(after:))
                            previous = before[(rowStart ?? before.startIndex)..<stop.lowerBound]
                        }
                        before = before[stop.upperBound...]
                    }
                    let end =
                        text.index(match.range.upperBound, offsetBy: 400, limitedBy: text.endIndex) ?? text.endIndex
                    var after = text[match.range.upperBound..<end]
                    if let stop = after.firstRange(of: boundary) { after = after[..<stop.lowerBound] }
                    let line = 1 + text[..<match.range.lowerBound].filter { $0 == "\n" }.count
                    found.append(
                        Statement(
                            place: "\(document.path):\(line)", number: number, before: before, after: after,
                            previous: previous, isSpin: isSpin))
                }
            }
        }
        return found
    }

    /// The limits a statement names: the subject nearest the number in its sentence, before it first, then after it;
    /// failing both, the last subject of the sentence before. A spin limit stated where no lock is named ("a waiter
    /// spins 64 times") is every lock's, and must equal each constant.
    fileprivate static func limit(of statement: Statement) -> [Limit] {
        let candidates = limits.filter { $0.isSpinLimit == statement.isSpin }
        /// The candidate whose subject is the last (or first) in `text`.
        func nearest(in text: Substring, last: Bool) -> Limit? {
            var best: (limit: Limit, at: String.Index)?
            for limit in candidates {
                for subject in limit.subjects {
                    let ranges = text.ranges(of: subject)
                    guard let range = last ? ranges.last : ranges.first else { continue }
                    if best == nil || (last ? range.lowerBound > best!.at : range.lowerBound < best!.at) {
                        best = (limit, range.lowerBound)
                    }
                }
            }
            return best?.limit
        }
        if let named = nearest(in: statement.before, last: true) ?? nearest(in: statement.after, last: false)
            ?? nearest(in: statement.previous, last: true)
        {
            return [named]
        }
        return statement.isSpin ? candidates : []
    }

    @Test func everyLimitTheDocumentationStatesIsTheConstantInTheCode() throws {
        let statements = try Self.statementsInDocumentation()
        var checked = Set<String>()
        for statement in statements {
            let named = Self.limit(of: statement)
            if named.isEmpty {
                let subjects = limits.flatMap(\.subjects).joined(separator: ", ")
                let context = String(statement.before.suffix(120))
                Issue.record(
                    "\(statement.place): \(statement.number) is stated as a limit, but its sentence names none (\(subjects)): \"…\(context)\""
                )
            }
            for limit in named {
                let value = try limit.value()
                #expect(
                    statement.number == value,
                    "\(statement.place): states \(statement.number) for \(limit), whose constant \(limit.constant) is \(value)"
                )
                checked.insert(limit.description)
            }
        }
        // Every limit is stated somewhere, so this test is never vacuous.
        #expect(checked == Set(limits.map(\.description)), "stated: \(checked.sorted())")
    }

    /// The attribution, on sentences of the kinds the documentation writes.
    @Test func aStatementIsAttributedToTheLimitItsSentenceNames() {
        func named(_ before: Substring, spin: Bool = false) -> [String] {
            Self.limit(of: Statement(place: "", number: 0, before: before, isSpin: spin)).map(\.description)
        }
        #expect(named("`.default`: ") == ["BoltsStyle's .default depth"])
        #expect(named("`.default`: 21 nested runs inline; `.immediate`: past ") == ["BoltsStyle's .immediate depth"])
        #expect(named("alt .default (") == ["BoltsStyle's .default depth"])
        #expect(named("With `on: nil`, the closure runs inline. Past ") == ["PromiseKitStyle's inline depth"])
        #expect(named("A contended thread on the Lock spins and, ", spin: true) == ["the shared lock's spin limit"])
        #expect(named("`.immediate` runs inline; a waiter ", spin: true) == ["the shared lock's spin limit"])
        #expect(named("nothing at all ").isEmpty)
        let later = Statement(
            place: "", number: 21, before: "Past ", after: " levels of its own, `.default` hops", isSpin: false)
        #expect(Self.limit(of: later).map(\.description) == ["BoltsStyle's .default depth"])
        let previous = Statement(
            place: "", number: 64, before: "Past ", previous: "`.immediate` never leaves the thread", isSpin: false)
        #expect(Self.limit(of: previous).map(\.description) == ["BoltsStyle's .immediate depth"])
    }
}
