// What B8 prints: for each shape and thread count, each contender's median time and its ratios to the floor and to
// plain GCD, paired by round, with the machine that measured them. `compare` turns it into tables and a chart.

import Foundation

/// The whole run, as JSON.
struct Report: Codable {
    struct Machine: Codable {
        /// The CPUs the process may use (`ProcessInfo.activeProcessorCount`).
        var cpus: Int
        var cpu: String
        var os: String
        var date: String
    }

    struct Point: Codable {
        var threads: Int
        var contenders: [Measured]
    }

    struct Measured: Codable {
        var name: String
        /// The median over the rounds of the timed part, in nanoseconds.
        var medianNanoseconds: UInt64
        /// The shape's operations per second at that median.
        var throughput: Double
        /// The median over the rounds of this contender's time over the floor's (or GCD's) in the same round; nil
        /// where the shape has no such contender.
        var ratioToFloor: Double?
        var ratioToGCD: Double?
    }

    struct ShapeResult: Codable {
        var id: String
        var summary: String
        var operations: Int
        var operation: String
        var points: [Point]
    }

    var machine: Machine
    var command: String
    var rounds: Int
    var shapes: [ShapeResult]
}

/// The median of `values` (the lower middle one of an even count).
func median<T: Comparable>(_ values: [T]) -> T {
    values.sorted()[(values.count - 1) / 2]
}

extension Report.Machine {
    /// The machine this process runs on.
    static var current: Self {
        let cpuInfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model =
            cpuInfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .flatMap { $0.split(separator: ":", maxSplits: 1).last }
            .map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown"
        var name = utsname()
        uname(&name)
        func text<T>(_ field: T) -> String {
            withUnsafeBytes(of: field) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        let formatter = ISO8601DateFormatter()
        return Self(
            cpus: ProcessInfo.processInfo.activeProcessorCount, cpu: model,
            os: "\(text(name.sysname)) \(text(name.release)) \(text(name.machine))",
            date: formatter.string(from: Date()))
    }
}
