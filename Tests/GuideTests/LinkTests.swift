// Every relative link of the documentation (README.md, CHANGELOG.md, docs/*.md, the DocC articles) resolves: the file
// exists, a `#heading` exists, and a `#L<n>` anchor lands on the declaration its sentence names, whatever the label.
// Which declaration that is depends on the label (docs/update-guide-links applies the same rule to move anchors):
//
// - a code span that is not a file name, [`BFContinuation.run(after:)`](...): line n declares `run`;
// - no such span but a number, [20 levels](...): line n declares a constant initialised with that number;
// - anything else, [`Configuration.swift`](...): line n declares a name that a code span of the link's sentence or
//   table cell mentions outside the labels of links (`conf.Q` names `Q`).
//
// A file that declares one thing twice, once per platform (`#if canImport(Darwin)` ... `#else`), has a second rule: an
// anchor into one platform's branch must be explained as that platform's code. The link's sentence names the platform
// (Linux, glibc, musl; Apple, Darwin, macOS, iOS, os_unfair_lock), or both; if the sentence names none, the nearest
// sentence of its paragraph that names one decides, those before it first.

import Foundation
import Testing

import struct TestSupport.OffThePool

/// What a line of Swift declares, read with the same patterns as docs/update-guide-links.
private struct Declaration {
    /// The declared name (`init`, `deinit` and `subscript` for those).
    let name: String
    /// The number a `let` or `var` is initialised with, if it is a plain integer literal.
    let literal: String?

    private static let modifiers =
        #"(?:(?:public|private|fileprivate|internal|package|open|final|static|class|override|mutating|convenience"#
        + #"|required|lazy|weak|indirect|dynamic|nonisolated(?:\(unsafe\))?)\s+)*"#
    private static var keyword: Regex<AnyRegexOutput> {
        try! Regex(
            #"^\s*(?:@[\w.]+(?:\([^)]*\))?\s+)*"# + modifiers
                + #"(?:(func|var|let|case|class|struct|enum|protocol|typealias|actor|extension)\s+`?(\w+)`?"#
                + #"|(init|deinit|subscript)\b)"#)
    }
    private static var constant: Regex<AnyRegexOutput> {
        try! Regex(#"\b(?:let|var)\s+\w+\s*(?::[^=]*)?=\s*([0-9][0-9_]*)\s*$"#)
    }

    /// The declaration on `line`, or `nil` if the line declares nothing (a comment, a call, a closing brace).
    init?(_ line: String) {
        guard let match = try? Declaration.keyword.prefixMatch(in: line),
            let name = match.output[2].substring ?? match.output[3].substring
        else { return nil }
        self.name = String(name)
        let literal = try? Declaration.constant.firstMatch(in: line)?.output[1].substring
        self.literal = literal.map { $0.replacingOccurrences(of: "_", with: "") }
    }
}

/// The name a link label's first code span names, unless that span is a file name: `BFTrampoline.runEnqueuedBeforeBlocking` names
/// `runEnqueuedBeforeBlocking`, `waitForPromises(timeout:)` names `waitForPromises`, `.main` names `main`.
private func symbol(of label: String) -> String? {
    for span in label.matches(of: /`([^`]+)`/).map({ String($0.output.1) }) {
        if span.hasSuffix(".swift") || span.hasSuffix(".md") || span.contains("/") { continue }
        let name = span.prefix { $0 != "(" }.split(separator: ".").last.map(String.init) ?? ""
        return name.isEmpty ? nil : name
    }
    return nil
}

/// The ranges of `text` that separate sentences and table cells: blank lines, `|`, and full stops, question and
/// exclamation marks followed by white space.
private func sentenceBoundaries(in text: String) -> [Range<String.Index>] {
    text.matches(of: /\n[ \t]*\n|\||[.!?](?=\s)/).map(\.range)
}

/// The sentence or table cell around `range`: from the boundary before it to the boundary after it.
private func sentence(around range: Range<String.Index>, in text: String, boundaries: [Range<String.Index>])
    -> Substring
{
    let start = boundaries.last { $0.upperBound <= range.lowerBound }?.upperBound ?? text.startIndex
    let end = boundaries.first { $0.lowerBound >= range.upperBound }?.lowerBound ?? text.endIndex
    return text[start..<end]
}

/// Whether `line` is the declaration a link labelled `label`, in `sentence`, names (the rule at the top of the file).
private func isNamedDeclaration(_ line: String, label: String, sentence: Substring) -> Bool {
    guard let declaration = Declaration(line) else { return false }
    if let symbol = symbol(of: label) { return declaration.name == symbol }
    if let literal = declaration.literal, label.contains(where: \.isNumber) {
        let numbers = label.replacingOccurrences(of: ",", with: "").matches(of: /\d+/).map { String($0.output) }
        return numbers.contains(literal)
    }
    let outsideLinks = sentence.replacing(/\[[^\]]*\]\([^)\s]+\)/, with: "")
    let spans = outsideLinks.matches(of: /`([^`]+)`/).map(\.output.1)
    return spans.contains { span in span.matches(of: /\w+/).contains { $0.output == declaration.name } }
}

/// The platform whose code a branch of `#if` holds.
private enum Platform: String {
    case apple = "Apple"
    case linux = "Linux"

    /// The platform a condition of `#if` or `#elseif` selects, or `nil` if it is not about the platform.
    /// `DARWIN_STANDINS` selects the Apple branch, compiled on Linux against Apple's declarations.
    init?(condition: Substring) {
        if condition.contains("!canImport(Darwin)") {
            self = .linux
        } else if condition.contains("canImport(Darwin)") || condition.contains("DARWIN_STANDINS") {
            self = .apple
        } else if condition.contains(/canImport\((Glibc|Musl|FoundationNetworking)\)|os\(Linux\)/) {
            self = .linux
        } else {
            return nil
        }
    }

    /// For each line of a Swift file, the platform of the innermost platform branch that holds it (`nil`: code of
    /// every platform). An `#else` after Apple branches only is Linux's, and after Linux branches only, Apple's.
    static func ofLines(_ lines: [String]) -> [Platform?] {
        var stack: [(branches: [Platform?], current: Platform?)] = []
        var result: [Platform?] = []
        for line in lines {
            let directive = line.drop { $0 == " " || $0 == "\t" }
            if let match = directive.prefixMatch(of: /#(if|elseif)\s+(.*)/) {
                let platform = Platform(condition: match.output.2)
                if match.output.1 == "if" {
                    stack.append(([platform], platform))
                } else if !stack.isEmpty {
                    stack[stack.count - 1].branches.append(platform)
                    stack[stack.count - 1].current = platform
                }
            } else if directive.hasPrefix("#else"), let frame = stack.last {
                let earlier = Set(frame.branches)
                let current: Platform? =
                    earlier == [.apple] ? .linux : earlier == [.linux] ? .apple : nil
                stack[stack.count - 1].current = current
            } else if directive.hasPrefix("#endif") {
                _ = stack.popLast()
            }
            result.append(stack.last { $0.current != nil }?.current)
        }
        return result
    }

    /// The platforms `text` names, links' targets left out.
    static func named(in text: Substring) -> Set<Platform> {
        let words = text.replacing(/\]\([^)\s]+\)/, with: "]")
        var named: Set<Platform> = []
        if words.contains(/\b(Apple|Darwin|macOS|iOS|tvOS|watchOS|visionOS|os_unfair_lock)\b/) { named.insert(.apple) }
        if words.contains(/\b(Linux|glibc|Glibc|musl|Musl)\b/) { named.insert(.linux) }
        return named
    }
}

/// The sentences of the paragraph around `range` (from the blank line before it to the blank line after it), and the
/// index of the one that holds `range`.
private func sentences(around range: Range<String.Index>, in text: String, boundaries: [Range<String.Index>])
    -> (sentences: [Substring], holding: Int)
{
    let blanks = text.matches(of: /\n[ \t]*\n/).map(\.range)
    let start = blanks.last { $0.upperBound <= range.lowerBound }?.upperBound ?? text.startIndex
    let end = blanks.first { $0.lowerBound >= range.upperBound }?.lowerBound ?? text.endIndex
    var sentences: [Substring] = []
    var holding = 0
    var from = start
    for boundary in boundaries where boundary.lowerBound >= start && boundary.upperBound <= end {
        if from <= range.lowerBound && range.upperBound <= boundary.lowerBound { holding = sentences.count }
        sentences.append(text[from..<boundary.lowerBound])
        from = boundary.upperBound
    }
    if from <= range.lowerBound { holding = sentences.count }
    sentences.append(text[from..<end])
    return (sentences, holding)
}

/// Why a link into the code of `platform`, in sentence `holding` of `paragraph`, is explained as another platform's,
/// or `nil` if it is not: the rule at the top of the file. A sentence that names no platform is explained by the
/// nearest one of its paragraph that does: the sentences before it first (the platform a paragraph has turned to),
/// then those after it (a sentence that names a lock, followed by what it is on each platform).
private func platformMismatch(_ platform: Platform, in paragraph: [Substring], holding: Int) -> String? {
    let order =
        [holding] + paragraph.indices.prefix(holding).reversed() + Array(paragraph.indices.dropFirst(holding + 1))
    guard let named = order.lazy.map({ Platform.named(in: paragraph[$0]) }).first(where: { !$0.isEmpty }) else {
        return "lands in the \(platform.rawValue) branch, and no sentence of its paragraph names a platform"
    }
    if named.contains(platform) { return nil }
    let described = named.map(\.rawValue).sorted().joined(separator: " and ")
    return "lands in the \(platform.rawValue) branch while its sentence describes \(described)"
}

/// GitHub's anchor for a Markdown heading.
private func slug(_ heading: String) -> String {
    String(
        heading.lowercased().compactMap { character -> Character? in
            if character == " " { return "-" }
            if character.isLetter || character.isNumber || character == "-" || character == "_" { return character }
            return nil
        })
}

/// The anchors of the headings of `document` (outside code blocks).
private func anchors(of document: Document) -> Set<String> {
    Set(
        document.prose.components(separatedBy: "\n").filter { $0.hasPrefix("#") }
            .map { slug(String($0.drop { $0 == "#" }.dropFirst())) })
}

@Suite("documentation links")
struct LinkTests {
    @Test(.offThePool) func everyLinkResolvesAndEveryLineAnchorLandsOnItsDeclaration() throws {
        var checked = 0
        var lineAnchors = 0
        var platformAnchors = 0
        for document in try Document.all() {
            let prose = document.prose
            let boundaries = sentenceBoundaries(in: prose)
            for match in prose.matches(of: /\[([^\]]*)\]\(([^)\s]+)\)/) {
                let label = String(match.output.1)
                let target = String(match.output.2)
                if target.hasPrefix("http") || target.hasPrefix("mailto:") { continue }
                let place = "\(document.path):\(document.line(of: match.range.lowerBound))"
                let parts = target.split(separator: "#", maxSplits: 1).map(String.init)
                let file =
                    target.hasPrefix("#")
                    ? document.url : document.url.deletingLastPathComponent().appendingPathComponent(parts[0])
                let fragment = target.hasPrefix("#") ? String(target.dropFirst()) : parts.count > 1 ? parts[1] : nil
                checked += 1
                guard FileManager.default.fileExists(atPath: file.path) else {
                    Issue.record("\(place): \(target): no such file")
                    continue
                }
                guard let fragment else { continue }
                if fragment.hasPrefix("L"), let number = Int(fragment.dropFirst()) {
                    lineAnchors += 1
                    let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
                    let around = sentence(around: match.range, in: prose, boundaries: boundaries)
                    #expect(
                        1 <= number && number <= lines.count
                            && isNamedDeclaration(lines[number - 1], label: label, sentence: around),
                        """
                        \(place): [\(label)](\(target)) does not land on the declaration it names \
                        (`python3 docs/update-guide-links` moves it)
                        """)
                    if 1 <= number && number <= lines.count, let platform = Platform.ofLines(lines)[number - 1] {
                        platformAnchors += 1
                        let (paragraph, holding) = sentences(around: match.range, in: prose, boundaries: boundaries)
                        if let mismatch = platformMismatch(platform, in: paragraph, holding: holding) {
                            Issue.record("\(place): [\(label)](\(target)) \(mismatch)")
                        }
                    }
                } else {
                    #expect(anchors(of: try Document(file)).contains(fragment), "\(place): \(target): no such heading")
                }
            }
        }
        #expect(checked > 80)
        #expect(lineAnchors > 50)
        #expect(platformAnchors >= 3)
    }

    /// The rule itself, on lines and labels of the kinds the documentation uses.
    @Test func aLineAnchorMustLandOnTheDeclarationItsLabelOrSentenceNames() {
        let cell: Substring = "inline on the completing thread (`.default`) ([`BFExecutor.swift`](x))"
        #expect(isNamedDeclaration("    case `default`", label: "`BFExecutor.swift`", sentence: cell))
        #expect(!isNamedDeclaration("    case immediate", label: "`BFExecutor.swift`", sentence: cell))
        #expect(!isNamedDeclaration("        queue.async(execute: block)", label: "`BFExecutor.swift`", sentence: cell))
        let limit = "    @usableFromInline static let defaultDepthLimit = 20"
        #expect(isNamedDeclaration(limit, label: "20 levels", sentence: "Past [20 levels](x), it hops"))
        #expect(!isNamedDeclaration(limit, label: "64 levels", sentence: "Past [64 levels](x), it enqueues"))
        #expect(!isNamedDeclaration("struct BFEnqueuedWork {", label: "20 levels", sentence: "Past [20 levels](x)"))
        let run = "    func run(after task: BFTask<TResult>, _ state: BFTaskState<TResult>) {"
        #expect(isNamedDeclaration(run, label: "`BFContinuation.run(after:)`", sentence: ""))
        #expect(!isNamedDeclaration("    // run(after:) decides", label: "`BFContinuation.run(after:)`", sentence: ""))
        #expect(isNamedDeclaration("    @inlinable init(pending: Void) {", label: "`init(pending:)`", sentence: ""))
        #expect(!isNamedDeclaration("    public static var promises: DispatchQueue {", label: "`.main`", sentence: ""))
        #expect(
            !isNamedDeclaration(
                "    /// `moreObservers` and are handed theirs next", label: "enters it in its initializer",
                sentence: "Every promise created pending [enters it in its initializer](x)"))
    }

    /// The platform rule, on the shapes of `#if` the sources use and on sentences of the kinds the guide writes.
    @Test func aLineAnchorIntoAPlatformBranchMustBeExplainedAsThatPlatformsCode() {
        let file = [
            "#if canImport(Darwin)", "    import Darwin", "#elseif DARWIN_STANDINS", "    import DarwinStandIns",
            "#else", "    #if canImport(Glibc)", "        import Glibc", "    #endif", "#endif", "struct Lock {",
            "#if canImport(Darwin) || DARWIN_STANDINS", "    let unfair: UnsafeMutablePointer<os_unfair_lock>",
            "#else", "    let word: Atomic<Bool>", "#endif", "}", "#if !canImport(Darwin) && !DARWIN_STANDINS",
            "    import Synchronization", "#endif",
        ]
        let platforms = Platform.ofLines(file)
        #expect(platforms[1] == .apple && platforms[3] == .apple && platforms[11] == .apple)
        #expect(platforms[6] == .linux && platforms[13] == .linux && platforms[17] == .linux)
        #expect(platforms[9] == nil && platforms[15] == nil)
        let linux: Substring = "On Linux [`BFLock`](x) is one atomic `Bool` stored inline in the task"
        #expect(platformMismatch(.linux, in: [linux], holding: 0) == nil)
        #expect(platformMismatch(.apple, in: [linux], holding: 0) != nil)
        let both: Substring = "[`BFLock`](x) is an `os_unfair_lock` on Apple platforms and an atomic word on Linux"
        #expect(platformMismatch(.apple, in: [both], holding: 0) == nil)
        #expect(platformMismatch(.linux, in: [both], holding: 0) == nil)
        let silent: Substring = "Both are guarded by a [`BFLock`](x)"
        let apple: Substring = "Apple platforms use `os_unfair_lock`"
        #expect(platformMismatch(.linux, in: [silent, linux, apple], holding: 0) == nil)
        #expect(platformMismatch(.apple, in: [silent, linux, apple], holding: 0) != nil)
        #expect(platformMismatch(.apple, in: [apple, silent], holding: 1) == nil)
        #expect(platformMismatch(.linux, in: [linux, silent, apple], holding: 1) == nil)
        #expect(platformMismatch(.apple, in: [linux, silent, apple], holding: 1) != nil)
        #expect(platformMismatch(.linux, in: [silent], holding: 0) != nil)
        let standIns: Substring = "The trait [`DarwinStandIns`](../Sources/DarwinStandIns/x.c) builds the lock."
        #expect(Platform.named(in: standIns).isEmpty)
    }
}
