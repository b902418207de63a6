// Program+Parsing.swift: reading a program back from its text form (`Program.description`).

extension Program {
    /// Why a program's text does not parse: the message names the word that was not expected.
    public struct ParseError: Error, CustomStringConvertible {
        /// What was wrong, and where.
        public let description: String
    }

    /// Reads a program from its text form, as ``description`` writes it: steps separated by `;` (or new lines), the
    /// steps a handler runs separated by `,`.
    public init(parsing text: String) throws {
        var words: [String] = []
        for line in text.split(whereSeparator: \.isNewline) {
            var spaced = ""
            for character in line {
                if "();,".contains(character) {
                    spaced += " \(character == "," ? "," : String(character)) "
                } else {
                    spaced.append(character)
                }
            }
            words += spaced.split(separator: " ").map(String.init) + [";"]
        }
        var parser = Parser(words: words)
        var steps: [Step] = []
        while !parser.atEnd {
            if parser.peek == ";" {
                parser.index += 1
                continue
            }
            steps.append(try parser.step())
        }
        self.init(steps)
    }

    private struct Parser {
        let words: [String]
        var index = 0

        var atEnd: Bool { index >= words.count }
        var peek: String? { atEnd ? nil : words[index] }

        func error(_ what: String) -> ParseError {
            ParseError(description: "expected \(what) at word \(index + 1) (\(peek.map { "'\($0)'" } ?? "the end"))")
        }

        mutating func next(_ what: String) throws -> String {
            guard let word = peek else { throw error(what) }
            index += 1
            return word
        }

        mutating func expect(_ word: String) throws {
            guard peek == word else { throw error("'\(word)'") }
            index += 1
        }

        mutating func number(prefix: Character, _ what: String) throws -> Int {
            let word = try next(what)
            guard word.first == prefix, let number = Int(word.dropFirst()), number >= 0 else {
                index -= 1
                throw error(what)
            }
            return number
        }

        mutating func node() throws -> Int { try number(prefix: "p", "a promise (pN)") }

        mutating func step() throws -> Step {
            switch peek {
            case "fulfil":
                index += 1
                return .fulfil(try node(), try number(prefix: "v", "a value (vK)"))
            case "reject":
                index += 1
                return .reject(try node(), try number(prefix: "e", "an error (eK)"))
            case "cancel":
                index += 1
                return .cancel(try node())
            default:
                let made = try node()
                try expect("=")
                return .make(made, try make())
            }
        }

        mutating func make() throws -> Make {
            let word = try next("how the promise is made")
            switch word {
            case "pending": return .pending
            case "cancellable": return .cancellable
            case "fulfilled": return .fulfilled(try number(prefix: "v", "a value (vK)"))
            case "rejected": return .rejected(try number(prefix: "e", "an error (eK)"))
            case "thenable":
                index -= 1
                return .thenable(try thenable())
            case "then":
                let source = try node()
                let queueWord = try next("a queue (q1, q2 or -)")
                var queue: Int?
                if queueWord != "-" {
                    guard queueWord.first == "q", let number = Int(queueWord.dropFirst()) else {
                        index -= 1
                        throw error("a queue (q1, q2 or -)")
                    }
                    queue = number
                }
                let onFulfilled = try reaction()
                let onRejected = try reaction()
                return .then(source: source, queue: queue, onFulfilled: onFulfilled, onRejected: onRejected)
            case "all", "race", "any":
                var inputs: [Int] = []
                while let next = peek, next.first == "p" { inputs.append(try node()) }
                return word == "all" ? .all(inputs) : word == "race" ? .race(inputs) : .any(inputs)
            default:
                index -= 1
                throw error("pending, cancellable, fulfilled, rejected, thenable, then, all, race or any")
            }
        }

        mutating func thenable() throws -> ThenableSpec {
            try expect("thenable")
            guard let depth = Int(try next("a depth")), depth >= 1 else {
                index -= 1
                throw error("a depth of 1 or more")
            }
            var spec = ThenableSpec(depth: depth, ending: .fulfil(0), async: false, noisy: false)
            while peek == "async" || peek == "noisy" {
                if try next("a flag") == "async" { spec.async = true } else { spec.noisy = true }
            }
            spec.ending = try ending()
            return spec
        }

        mutating func ending() throws -> Ending {
            if peek?.first == "v" { return .fulfil(try number(prefix: "v", "a value (vK)")) }
            return .reject(try number(prefix: "e", "a value (vK) or an error (eK)"))
        }

        mutating func reaction() throws -> Reaction? {
            if peek == "_" {
                index += 1
                return nil
            }
            try expect("(")
            var effects: [Step] = []
            while peek != "->" {
                effects.append(try step())
                if peek == "," { index += 1 }
            }
            try expect("->")
            let result: Return
            switch peek {
            case "throw":
                index += 1
                result = .throwing(try number(prefix: "e", "an error (eK)"))
            case "adopt":
                index += 1
                if peek == "self" {
                    index += 1
                    result = .adoptSelf
                } else {
                    result = .adopt(try node())
                }
            case "thenable": result = .thenable(try thenable())
            default: result = .value(try number(prefix: "v", "what the handler returns"))
            }
            try expect(")")
            return Reaction(effects: effects, result: result)
        }
    }
}
