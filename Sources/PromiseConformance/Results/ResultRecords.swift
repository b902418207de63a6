import Foundation

// The results as JSON: the lines a child process prints for its parent (Running/Isolation.swift), a line as each
// top-level case starts and ends (`CaseEventRecord`), then one `ResultRecord`; and the command's JSON matrix
// (Reporting/Matrix.swift), one `ResultRecord` per clause. `CaseRecord` is how one case ended, in both.

/// How one case ended, as JSON: in a child's case lines, in its result, and in the command's JSON matrix.
struct CaseRecord: Codable, Sendable {
    /// The case's name.
    let name: String
    /// `passed`, `failed`, `crashed`, `timedOut` or `deviated`.
    let outcome: String
    let message: String?

    init(_ result: CaseResult) {
        name = result.name
        message = result.message
        outcome =
            switch result.outcome {
            case .passed: "passed"
            case .failed: "failed"
            case .crashed: "crashed"
            case .timedOut: "timedOut"
            case .deviated: "deviated"
            }
    }

    /// The case result it stands for.
    var result: CaseResult {
        let message = message ?? ""
        let outcome: CaseResult.Outcome =
            switch self.outcome {
            case "passed": .passed
            case "crashed": .crashed(message)
            case "timedOut": .timedOut(message)
            case "deviated": .deviated(message)
            default: .failed(message)
            }
        return CaseResult(name: name, outcome: outcome)
    }
}

/// The line a child process prints as a top-level case starts (`started`), makes progress (`progressed`: its
/// deadline moved, see ``CaseClock/waitWhileProgressing(_:_:of:longest:reached:)``) or ends (`ended`).
struct CaseEventRecord: Codable, Sendable {
    /// The prefix of the line. The parent finds it anywhere in a line, so that output the implementation printed
    /// without a newline does not hide it.
    static let marker = "promise-conformance-case: "

    let started: String?
    let ended: CaseRecord?
    /// The running case made progress (its deadline moved): the child is alive.
    let progressed: String?

    init(_ event: CaseEvent) {
        switch event {
        case .started(let name): (started, ended, progressed) = (name, nil, nil)
        case .ended(let result): (started, ended, progressed) = (nil, CaseRecord(result), nil)
        case .progressed(let name): (started, ended, progressed) = (nil, nil, name)
        }
    }

    /// The line the child prints.
    var line: String { Self.marker + jsonLine(self) }
}

/// One clause's result as JSON: what a child process that ran the clause tells its parent (one line on standard
/// output), and a result in the command's JSON matrix.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
struct ResultRecord: Codable {
    /// The prefix of the line, so that whatever else the implementation prints is ignored.
    static let marker = "promise-conformance-result: "

    let clause: String
    let status: String
    let message: String?
    let seconds: Double
    let graceWaits: Int
    let assimilatedByHelper: Bool
    /// Every case that ran, in order (``ClauseResult/casesRun``).
    let casesRun: [String]
    /// How each of them ended (``ClauseResult/caseResults``); nil in a result without cases.
    let cases: [CaseRecord]?
    /// What failed outside the cases; nil when nothing did.
    let failuresOutsideCases: [String]?

    init(_ result: ClauseResult) {
        clause = result.clause.id
        status = result.status.kind
        message = result.status.message
        seconds = result.duration.seconds
        graceWaits = result.graceWaits
        assimilatedByHelper = result.assimilatedByHelper
        casesRun = result.casesRun
        cases = result.caseResults.isEmpty ? nil : result.caseResults.map(CaseRecord.init)
        failuresOutsideCases = result.failuresOutsideCases.isEmpty ? nil : result.failuresOutsideCases
    }

    /// The line the child prints.
    var line: String { Self.marker + jsonLine(self) }

    /// The result it stands for.
    func result(_ clause: Clause) -> ClauseResult {
        let message = message ?? ""
        let status: ClauseStatus =
            switch status {
            case "passed": .passed
            case "deviation": .deviation(message)
            case "notApplicable": .notApplicable(message)
            default: .failed(message)
            }
        var result = ClauseResult(
            clause: clause, status: status, duration: .milliseconds(Int(seconds * 1000)), graceWaits: graceWaits,
            assimilatedByHelper: assimilatedByHelper, casesRun: casesRun,
            caseResults: (cases ?? []).map(\.result))
        result.failuresOutsideCases = failuresOutsideCases ?? []
        return result
    }
}

/// `value` as one line of JSON.
private func jsonLine(_ value: some Encodable) -> String {
    let data = (try? JSONEncoder().encode(value)) ?? Data()
    return String(decoding: data, as: UTF8.self)
}

extension ClauseStatus {
    /// `passed`, `failed`, `deviation` or `notApplicable`: the status in the JSON output.
    var kind: String {
        switch self {
        case .passed: "passed"
        case .failed: "failed"
        case .deviation: "deviation"
        case .notApplicable: "notApplicable"
        }
    }
}
