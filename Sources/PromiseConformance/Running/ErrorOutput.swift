import Foundation

// A crashed child's error output, made readable for the report (see Isolation.swift).

/// A child's error output made readable for a report.
///
/// What a crashing Swift process writes there is not plain text: on Linux (and macOS, since Swift 5.9) the runtime's
/// backtracer prints, after the runtime's own message (`Fatal error: ...`), a report that ends with the crashed
/// thread's registers, the memory they point to as hex bytes and as characters (bytes of the stack shown as Latin-1),
/// and the address ranges and build IDs of the loaded images; in a terminal it colours all of it with escape
/// sequences. The last lines of that are what a report showed, and they read as garbage.
enum ErrorOutput {
    /// The lines of `bytes` as text: decoded as UTF-8 (an invalid byte is dropped), escape sequences and control
    /// characters removed, each line trimmed, empty lines left out.
    static func lines(_ bytes: [UInt8]) -> [String] {
        var text = String.UnicodeScalarView()
        var scalars = String(decoding: bytes, as: UTF8.self).unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            switch scalar.value {
            case 0x1B:  // ESC: a CSI (`ESC [ ... final`), a string (`ESC ] ... BEL or ESC \`), or one more character
                switch scalars.next()?.value {
                case 0x5B?: skipControlSequence(&scalars)
                case 0x5D?, 0x50?, 0x58?, 0x5E?, 0x5F?: skipControlString(&scalars)
                default: break
                }
            case 0x9B: skipControlSequence(&scalars)
            case 0x0A, 0x0D: text.append("\n")
            case 0x09: text.append(" ")
            case 0x00..<0x20, 0x7F..<0xA0, 0xFFFD: break
            default: text.append(scalar)
            }
        }
        return String(text).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
    }

    private static func skipControlSequence(_ scalars: inout String.UnicodeScalarView.Iterator) {
        while let scalar = scalars.next(), !(0x40...0x7E).contains(scalar.value) {}
    }

    private static func skipControlString(_ scalars: inout String.UnicodeScalarView.Iterator) {
        while let scalar = scalars.next() {
            if scalar.value == 0x07 { return }
            if scalar.value == 0x1B {
                _ = scalars.next()
                return
            }
        }
    }

    /// The telling lines of `bytes`, joined with ` / `, at most about 800 characters; empty when there are none.
    ///
    /// - The runtime's and the sanitizers' messages wherever they are: `Fatal error: ...`, `Precondition failed`,
    ///   a sanitizer's `ERROR:` line and its `SUMMARY:`.
    /// - Of the backtracer's report (from its first `Program crashed` or `*** Signal` line): what it says crashed, and
    ///   the crashed thread's first frames, without their addresses; never its registers, memory or images.
    /// - Without any of those, the last three lines before the report.
    static func excerpt(_ bytes: [UInt8]) -> String {
        let lines = lines(bytes)
        let reportStart = lines.firstIndex { $0.contains("Program crashed:") || $0.hasPrefix("*** Signal") }
        let before = lines[..<(reportStart ?? lines.endIndex)]
        let keywords = [
            "Fatal error", "fatal error", "Precondition failed", "Assertion failed", "Unexpectedly found nil",
            "ERROR: ", "SUMMARY: ",
        ]
        var picked = before.filter { line in keywords.contains { line.contains($0) } }
        if picked.isEmpty { picked = Array(before.suffix(3)) }
        if let reportStart { picked += backtrace(lines[reportStart...]) }
        var result: [String] = []
        var length = 0
        for line in picked where !result.contains(line) {
            let shown = line.count > 240 ? line.prefix(240) + "…" : line
            length += shown.count
            if length > 800 { break }
            result.append(shown)
        }
        return result.joined(separator: " / ")
    }

    /// The backtracer's lines worth reading: its "Program crashed" line (not the one that says it is backtracing) and
    /// the crashed thread's first three frames.
    private static func backtrace(_ report: ArraySlice<String>) -> [String] {
        var picked: [String] = []
        var frames = -1  // not yet in the crashed thread
        for line in report {
            if line.hasPrefix("Registers:") || line.hasPrefix("Images") { break }
            if let start = line.range(of: "Program crashed:")?.lowerBound, !line.contains("Backtracing") {
                // `*** Program crashed: ... ***`, or in colour `💣 Program crashed: ...`
                picked.append(withoutAddresses(String(line[start...]).trimmingCharacters(in: ["*", " "])))
            } else if line.hasPrefix("Thread "), line.hasSuffix("crashed:") {
                picked.append(line)
                frames = 0
            } else if frames >= 0, frames < 3, line.first?.isNumber == true {
                picked.append(withoutAddresses(line))
                frames += 1
            }
        }
        return picked
    }

    /// `line` without its hexadecimal addresses (`at 0x00007f...`, `0x0000...`) and the backtracer's `[ra]` marks.
    private static func withoutAddresses(_ line: String) -> String {
        func isAddress(_ word: Substring) -> Bool { word.hasPrefix("0x") && word.count > 6 }
        let words = line.split(separator: " ")
        return words.indices.filter { index in
            let word = words[index]
            if isAddress(word) || word == "[ra]" || word == "[async]" { return false }
            return !(word == "at" && index + 1 < words.count && isAddress(words[index + 1]))
        }
        .map { words[$0] }.joined(separator: " ")
    }
}
