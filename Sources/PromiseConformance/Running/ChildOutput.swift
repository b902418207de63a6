import Foundation

// The parent's side of a child's standard output: its case lines and its result line, parsed (see Isolation.swift).

/// What a child process printed for its parent: its case lines and its result line.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
struct ChildOutput {
    /// The cases that ended, in order.
    var ended: [CaseResult] = []
    /// The case that started and did not end: the one the child was in when it died.
    var running: String?
    /// The result, if the child got as far as printing it.
    var result: ResultRecord?

    init(parsing output: String) {
        for line in output.split(separator: "\n") {
            if let range = line.range(of: CaseEventRecord.marker),
                let event = try? JSONDecoder().decode(
                    CaseEventRecord.self, from: Data(line[range.upperBound...].utf8))
            {
                if let name = event.started { running = name }
                if let record = event.ended {
                    ended.append(record.result)
                    if running == record.name { running = nil }
                }
            } else if let range = line.range(of: ResultRecord.marker),
                let record = try? JSONDecoder().decode(ResultRecord.self, from: Data(line[range.upperBound...].utf8))
            {
                result = record
            }
        }
    }
}
